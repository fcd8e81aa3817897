/**
 * What is open right now in this process (live event streams, exports),
 * counted per key (a user) and in all: a ceiling on file descriptors and
 * memory that rate limits, which count starts rather than what stays open,
 * cannot give. In memory on purpose: an open connection belongs to the
 * process that holds it, and a restart closes them all.
 */
export class OpenSlots {
  readonly #byKey = new Map<string, number>();
  #total = 0;

  constructor(
    private readonly perKey: number,
    private readonly total = Number.POSITIVE_INFINITY,
  ) {}

  /** Takes one place for `key`: its release (idempotent), or which ceiling refused. */
  take(key: string): { release: () => void } | { refused: "key" | "total" } {
    const mine = this.#byKey.get(key) ?? 0;
    if (mine >= this.perKey) return { refused: "key" };
    if (this.#total >= this.total) return { refused: "total" };
    this.#byKey.set(key, mine + 1);
    this.#total++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#total--;
        const left = (this.#byKey.get(key) ?? 1) - 1;
        if (left > 0) this.#byKey.set(key, left);
        else this.#byKey.delete(key);
      },
    };
  }

  get open(): number {
    return this.#total;
  }
}

/**
 * `stream`, calling `release` once whichever way it ends: read to its end,
 * failed, or cancelled by a client that went away (a closed tab).
 */
export function releasingStream<T>(stream: ReadableStream<T>, release: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          release();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}
