import { sql } from "drizzle-orm";
import { listenOn } from "./client.ts";
import { pgRows } from "./rows.ts";

/** The channel on which a server says "the council changed" (payload: the new version). */
const COUNCIL_CHANNEL = "unisson_council";

/** Sent through the handle that wrote the change: delivered at its commit, never for a rollback (as run-channel.ts). */
export async function notifyCouncil(db: unknown, version: number): Promise<void> {
  await pgRows(db, sql`SELECT pg_notify(${COUNCIL_CHANNEL}, ${String(version)})`);
}

/** LISTEN on the council channel; `onListen` runs after each (re)subscription, when a change may have been missed. */
export async function listenCouncil(db: object, onChange: () => void, onListen: () => void): Promise<() => Promise<void>> {
  return await listenOn(db, COUNCIL_CHANNEL, () => onChange(), onListen);
}
