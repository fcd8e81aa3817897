import { sql } from "drizzle-orm";
import { listenOn } from "./client.ts";
import { pgRows } from "./rows.ts";

/** The channel on which a server says "this run's stored events changed" (payload: the run id). */
const RUN_CHANNEL = "unisson_run";

/**
 * NOTIFY the servers listening that a run changed. Sent through the handle
 * that wrote the change: in a transaction, PostgreSQL delivers it at commit
 * (never for a rollback), so a woken server always reads what woke it.
 */
export async function notifyRun(db: unknown, runId: number): Promise<void> {
  await pgRows(db, sql`SELECT pg_notify(${RUN_CHANNEL}, ${String(runId)})`);
}

/**
 * LISTEN on the run channel, on the one dedicated connection Bun's client
 * keeps for it (reconnected with backoff if it drops; `onListen` runs after
 * each (re)subscription, when notifications may have been missed).
 * Returns the unsubscribe.
 */
export async function listenRuns(db: object, onRun: (runId: number) => void, onListen: () => void): Promise<() => Promise<void>> {
  return await listenOn(
    db,
    RUN_CHANNEL,
    (payload) => {
      const id = Number(payload);
      if (Number.isInteger(id)) onRun(id);
    },
    onListen,
  );
}
