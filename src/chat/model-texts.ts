import type { LooseRunEvent as RunEvent } from "../contracts/run-events.ts";

/** Pieces of a model's text are sent at most this often: a few events a second, not one per token. */
export const TEXT_FLUSH_MS = 100;

/**
 * What a model may show live: an answer is bounded by its token limit (a few
 * thousand words); past this, a misbehaving endpoint's text is no longer
 * relayed (its answer, once complete, still is the stored one).
 */
export const MODEL_TEXT_MAX_CHARS = 32_000;

type Shown = { text: string; lastId: number };

/**
 * Each model's answer as it is written, in one run: the adapters' tiny
 * deltas gathered and sent as one `model_delta` per model and per
 * TEXT_FLUSH_MS (the first piece at once, so the first words are not held
 * back), and the text so far per model: what a client that comes back gets,
 * in one piece, instead of every delta (events kept in memory stay bounded).
 */
export class ModelTexts {
  readonly #shown = new Map<string, Shown>();
  readonly #pending = new Map<string, string>();
  readonly #closed = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** Sends one piece (the run's `model_delta` event) and returns it. */
    private readonly emit: (model: string, from: number, text: string) => RunEvent,
    /** The pieces of one flush, together (another server is told in one message). */
    private readonly flushed: (events: RunEvent[]) => void,
  ) {}

  /** A delta from the adapter. */
  write(model: string, delta: string): void {
    if (this.#closed.has(model) || !delta) return;
    const room = MODEL_TEXT_MAX_CHARS - (this.#shown.get(model)?.text.length ?? 0) - (this.#pending.get(model)?.length ?? 0);
    if (room <= 0) return;
    this.#pending.set(model, (this.#pending.get(model) ?? "") + delta.slice(0, room));
    if (this.#timer === undefined) this.#tick();
  }

  /** The model's call is over (answered, failed, left out): its last piece now, before the event that says so; nothing after. */
  close(model: string): void {
    this.#flush([model]);
    this.#closed.add(model);
  }

  /** The run is over: no more pieces. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }

  /** Each model's text so far (at most MODEL_TEXT_MAX_CHARS), by model name. */
  written(): Map<string, string> {
    return new Map([...this.#shown].map(([model, s]) => [model, s.text]));
  }

  /** Each model's text so far, as one piece from 0 carrying the id of its last piece. */
  snapshot(): RunEvent[] {
    return [...this.#shown].map(([model, s]) => ({ id: s.lastId, type: "model_delta", data: { model, from: 0, text: s.text } }));
  }

  /** Sends what is pending, then holds the next pieces for TEXT_FLUSH_MS (sent at its end if any came). */
  #tick(): void {
    this.#flush([...this.#pending.keys()]);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#pending.size > 0) this.#tick();
    }, TEXT_FLUSH_MS);
  }

  #flush(models: string[]): void {
    const events: RunEvent[] = [];
    for (const model of models) {
      const piece = this.#pending.get(model);
      this.#pending.delete(model);
      if (!piece) continue;
      const before = this.#shown.get(model)?.text ?? "";
      const event = this.emit(model, before.length, piece);
      this.#shown.set(model, { text: before + piece, lastId: event.id });
      events.push(event);
    }
    if (events.length > 0) this.flushed(events);
  }
}
