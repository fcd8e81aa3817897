import type { RunEventData, RunEventType } from "../contracts/run-events.ts";

/**
 * An event of a run, as stored and sent (names and data: src/contracts/run-events.ts).
 * Text deltas are only live: a client that comes back after the end gets the
 * stored message instead.
 */
export type RunEvent = { id: number; type: RunEventType; data: Record<string, unknown> };

export const TERMINAL: ReadonlySet<RunEventType> = new Set(["final", "failed"]);

/**
 * A run in progress in this process: its events so far, the clients
 * listening, and the abort switch of its upstream calls. Event ids go on
 * from the previous attempt of the same turn, so a Last-Event-ID stays valid
 * across a retry.
 */
export class LiveRun {
  readonly events: RunEvent[] = [];
  readonly #listeners = new Set<(e: RunEvent) => void>();
  readonly abort = new AbortController();
  #seq: number;
  finished = false;
  /** The run's outcome, for JSON callers in this process. */
  result?: Promise<unknown>;
  /** Called after each stored (non-delta) event: the run keeps its events so far in its row. */
  onStoredEvent?: () => void;

  constructor(
    readonly runId: number,
    readonly conversationId: number,
    firstId: number,
  ) {
    this.#seq = firstId;
  }

  emit<K extends RunEventType>(type: K, data: RunEventData<Record<string, unknown>>[K]): RunEvent {
    const event = { id: ++this.#seq, type, data };
    this.events.push(event);
    if (TERMINAL.has(type)) this.finished = true;
    for (const l of this.#listeners) l(event);
    if (type !== "synthesis_delta") this.onStoredEvent?.();
    return event;
  }

  /** Events after `afterId`, then every new one until the run ends; returns the unsubscribe. */
  follow(afterId: number, listener: (e: RunEvent) => void): () => void {
    for (const e of this.events) if (e.id > afterId) listener(e);
    if (this.finished) return () => {};
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * What is stored with the run: everything but the text deltas, and the
   * final answer by its message id (the message holds it; see expandStored).
   */
  storedEvents(): RunEvent[] {
    return this.events
      .filter((e) => e.type !== "synthesis_delta")
      .map((e) => (e.type === "final" ? { ...e, data: { message_id: (e.data.message as { id?: number } | undefined)?.id } } : e));
  }
}
