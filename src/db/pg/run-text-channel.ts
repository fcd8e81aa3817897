import { sql } from "drizzle-orm";
import { listenOn } from "./client.ts";
import { pgRows } from "./rows.ts";

/** The channel on which the server carrying a run out sends its models' text pieces to the others (run-text-relay.ts). */
const RUN_TEXT_CHANNEL = "unisson_run_text";

/** Sends one payload (already within PostgreSQL's 8000-byte limit) on the text channel. */
export async function notifyRunText(db: unknown, payload: string): Promise<void> {
  await pgRows(db, sql`SELECT pg_notify(${RUN_TEXT_CHANNEL}, ${payload})`);
}

/** LISTEN on the text channel, on the connection Bun's client keeps for LISTEN; returns the unsubscribe. */
export async function listenRunText(db: object, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  return await listenOn(db, RUN_TEXT_CHANNEL, onPayload);
}
