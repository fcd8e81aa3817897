import { type Db, dialectOf } from "./client.ts";
import { listenRuns, notifyRun } from "./pg/run-channel.ts";
import { RunFollowers } from "./run-followers.ts";

/**
 * How a client following a run that another server process carries out
 * learns of its new events (src/chat/run-events.ts re-reads the run's row).
 * On SQLite (one server, the CLI beside it) it reads again every 500 ms, as
 * ever. On PostgreSQL the writer NOTIFies and each server keeps one LISTEN
 * connection that wakes the streams following that run; a slow re-read every
 * 5 s stays as a safety net for a notification lost while that connection
 * reconnects (docs/DECISIONS.md, "Runs across servers").
 */
export type RunWakeups = {
  /** How often a follower reads the run again with no wake-up. */
  readonly rereadMs: number;
  /** Calls `wake` whenever the run may have new stored events; returns the unfollow. */
  follow(runId: number, wake: () => void): () => void;
};

const SQLITE_REREAD_MS = 500;
const POSTGRES_REREAD_MS = 5_000;

/** After a write of a run's stored events or status: wakes the servers following it (PostgreSQL; nothing to do on SQLite). */
export async function announceRunChange(db: Db, runId: number): Promise<void> {
  if (dialectOf(db) === "postgres") await notifyRun(db, runId);
}

export function createRunWakeups(db: Db): RunWakeups {
  if (dialectOf(db) !== "postgres") return { rereadMs: SQLITE_REREAD_MS, follow: () => () => {} };
  // Not listening (the database is down): the followers' slow re-read carries on.
  const followers: RunFollowers<() => void> = new RunFollowers(() =>
    listenRuns(
      db,
      (id) => {
        for (const wake of followers.of(id)) wake();
      },
      // After each (re)subscription, when notifications may have been missed.
      () => {
        for (const wake of followers.all()) wake();
      },
    ),
  );
  return {
    rereadMs: POSTGRES_REREAD_MS,
    follow: (runId, wake) => followers.add(runId, wake),
  };
}
