import type { RunEventData, RunEventType } from "../contracts/run-events.ts";
import { GatheredText } from "./gathered-text.ts";
import { ModelTexts } from "./model-texts.ts";

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
  /** Called with the models' text pieces of each flush (model-texts.ts): relayed to the other servers, checkpointed in the row. */
  onTextFlushed?: (events: RunEvent[]) => void;
  /** Each model's answer as it is written (kept as the text so far, not as its deltas). */
  readonly texts = new ModelTexts(
    (model, from, text) => this.emit("model_delta", { model, from, text }),
    (events) => this.onTextFlushed?.(events),
  );
  /** The synthesis as it is written: its deltas gathered into a few `synthesis_delta` events a second. */
  readonly synthesisText = new GatheredText((text) => this.emit("synthesis_delta", { text }));

  constructor(
    readonly runId: number,
    readonly conversationId: number,
    firstId: number,
  ) {
    this.#seq = firstId;
  }

  /** The run's last event, written into its row but not yet told: see `record`. */
  #recorded?: RunEvent;

  emit<K extends RunEventType>(type: K, data: RunEventData<Record<string, unknown>>[K]): RunEvent {
    // The synthesis text gathered so far goes first: an event never overtakes text written before it.
    if (type !== "synthesis_delta") this.synthesisText.flush();
    const event = { id: ++this.#seq, type, data };
    this.#tell(event);
    if (type !== "synthesis_delta" && type !== "model_delta") this.onStoredEvent?.();
    return event;
  }

  /**
   * The terminal event (final, failed), in two steps: recorded inside the
   * transaction that writes the outcome (storedEvents() includes it, so the
   * row stores it), told to the listeners by `publish` once that transaction
   * committed. Told earlier, a client could read the answer or the refund it
   * announces before another connection sees them (PostgreSQL). A later
   * `record` replaces one whose transaction failed.
   */
  record<K extends "final" | "failed">(type: K, data: RunEventData<Record<string, unknown>>[K]): RunEvent {
    // The synthesis's last words before the answer; a stopped or failed run keeps the text it showed.
    if (type === "final") this.synthesisText.flush();
    this.synthesisText.stop();
    this.#recorded = { id: this.#recorded?.id ?? ++this.#seq, type, data };
    return this.#recorded;
  }

  publish(event: RunEvent): void {
    if (this.#recorded === event) this.#recorded = undefined;
    this.#tell(event);
  }

  #tell(event: RunEvent): void {
    // A model's pieces are kept as its text so far (this.texts), not one by one.
    if (event.type !== "model_delta") this.events.push(event);
    if (TERMINAL.has(event.type)) {
      this.finished = true;
      this.texts.stop();
      this.synthesisText.stop();
    }
    for (const l of this.#listeners) l(event);
  }

  /**
   * Events after `afterId` (each model's text so far in one piece, where it
   * grew after `afterId`), then every new one until the run ends; returns the unsubscribe.
   */
  follow(afterId: number, listener: (e: RunEvent) => void): () => void {
    for (const e of byId(this.events, this.texts.snapshot())) if (e.id > afterId) listener(e);
    if (this.finished) return () => {};
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * What is stored with the run: everything but the text deltas, and the
   * final answer by its message id (the message holds it; see expandStored).
   * While it runs, each model's text so far too (a checkpoint that a client
   * of another server process resumes from); not once it ended (the message,
   * or the `failed` event's answers, hold what the models said).
   */
  storedEvents(): RunEvent[] {
    const ending = this.#recorded !== undefined || this.finished;
    return byId([...this.events, ...(this.#recorded ? [this.#recorded] : [])], ending ? [] : this.texts.snapshot())
      .filter((e) => e.type !== "synthesis_delta")
      .map((e) => (e.type === "final" ? { ...e, data: { message_id: (e.data.message as { id?: number } | undefined)?.id } } : e));
  }
}

/** Two lists of events, each in id order, merged in id order. */
function byId(a: RunEvent[], b: RunEvent[]): RunEvent[] {
  return b.length === 0 ? a : [...a, ...b].sort((x, y) => x.id - y.id);
}
