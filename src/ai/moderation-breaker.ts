/** After this many moderation failures within the window, the API is not called until the window has passed. */
const FAILURES = 3;
const WINDOW_MS = 60_000;

/**
 * The moderation API's own breaker: a hung or failing moderation endpoint
 * would otherwise add its whole timeout to every /chat. Open, the outage
 * policy (MODERATION_ON_OUTAGE) applies at once.
 */
export class ModerationBreaker {
  #failures: number[] = [];
  #openUntil = 0;

  constructor(private readonly now: () => number) {}

  isOpen(): boolean {
    return this.#openUntil > this.now();
  }

  success(): void {
    this.#failures = [];
  }

  failure(): void {
    const now = this.now();
    this.#failures = [...this.#failures.filter((t) => t > now - WINDOW_MS), now];
    if (this.#failures.length >= FAILURES) {
      this.#openUntil = now + WINDOW_MS;
      this.#failures = [];
    }
  }
}
