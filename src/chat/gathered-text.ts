import { TEXT_FLUSH_MS } from "./model-texts.ts";

/**
 * The synthesiser's deltas, gathered as the models' are (model-texts.ts): the
 * first piece at once, so the first words are not held back, then what came
 * meanwhile once per TEXT_FLUSH_MS. A synthesis streamed in 120 tokens was
 * 120 events, each with its own frame and JSON (issue 46: a third of a live
 * answer's events); concatenated, the text is the same.
 */
export class GatheredText {
  #pending = "";
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly send: (text: string) => void) {}

  write(delta: string): void {
    if (!delta) return;
    this.#pending += delta;
    if (this.#timer === undefined) this.#tick();
  }

  /** What is pending, now (before any other event of the run, so the order of the text and the events holds). */
  flush(): void {
    const text = this.#pending;
    this.#pending = "";
    if (text) this.send(text);
  }

  /** The run is over: what was not sent is dropped (the final answer, or the stopped run's partial text, is what was shown). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = "";
  }

  #tick(): void {
    this.flush();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#pending) this.#tick();
    }, TEXT_FLUSH_MS);
  }
}
