/**
 * The streams of one server that follow runs, by run id, behind one LISTEN
 * of a run channel (run-wakeups.ts, run-text-relay.ts). The LISTEN starts
 * with the first follower (the CLI and idle servers open no connection for
 * it) and stays; if it cannot start (the database is down), the next
 * follower tries again, and meanwhile each caller's own fallback carries on.
 */
export class RunFollowers<F> {
  readonly #byRun = new Map<number, Set<F>>();
  readonly #listen: () => Promise<unknown>;
  #listening = false;

  constructor(listen: () => Promise<unknown>) {
    this.#listen = listen;
  }

  /** The followers of one run. */
  of(runId: number): Iterable<F> {
    return this.#byRun.get(runId) ?? [];
  }

  /** Every follower of every run. */
  *all(): Iterable<F> {
    for (const set of this.#byRun.values()) yield* set;
  }

  /** Adds a follower of the run (listening first if need be); returns its removal. */
  add(runId: number, follower: F): () => void {
    if (!this.#listening) {
      this.#listening = true;
      this.#listen().catch(() => {
        this.#listening = false;
      });
    }
    const set = this.#byRun.get(runId) ?? new Set();
    set.add(follower);
    this.#byRun.set(runId, set);
    return () => {
      set.delete(follower);
      if (set.size === 0 && this.#byRun.get(runId) === set) this.#byRun.delete(runId);
    };
  }
}
