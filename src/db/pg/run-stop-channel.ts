import { sql } from "drizzle-orm";
import { listenOn } from "./client.ts";
import { pgRows } from "./rows.ts";

/** The channel on which a server asks "stop this run" of the server carrying it out (payload: the run id). */
const RUN_STOP_CHANNEL = "unisson_run_stop";

/** Asks every server listening to stop the run; only the one holding it in memory acts (src/chat/run-stop.ts). */
export async function notifyRunStop(db: unknown, runId: number): Promise<void> {
  await pgRows(db, sql`SELECT pg_notify(${RUN_STOP_CHANNEL}, ${String(runId)})`);
}

/** LISTEN for stop requests, on the dedicated connection Bun's client keeps for notifications. Returns the unsubscribe. */
export async function listenRunStops(db: object, onStop: (runId: number) => void): Promise<() => Promise<void>> {
  return await listenOn(db, RUN_STOP_CHANNEL, (payload) => {
    const id = Number(payload);
    if (Number.isInteger(id)) onStop(id);
  });
}
