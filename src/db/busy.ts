import type { Database } from "bun:sqlite";
import { type Db, dialectOf, handleOf } from "./client.ts";

/**
 * bun:sqlite waits for a lock synchronously (the connection's busy timeout),
 * freezing the event loop. Once one write on a connection gave up on a lock
 * held by another process, the writes that consult this guard (rate-limit
 * counters, timed jobs) fail at once for a short while with the same
 * SQLITE_BUSY (answered 503) instead of freezing the loop once each: while
 * the connection is marked, each such write first asks for the lock without
 * waiting, and goes ahead (clearing the mark) as soon as it is free again.
 * SQLite-specific: on a database server there is no such process-wide freeze.
 */
// Module state: a mark per connection, keyed by it, like bun:sqlite's own lock wait.
const busyUntil = new WeakMap<Database, number>();
const HOLD_MS = 2_000;

/** SQLITE_BUSY / SQLITE_LOCKED, also when drizzle wrapped the driver's error (its `cause`). */
export function isBusyError(e: unknown): boolean {
  for (let err = e, i = 0; err && i < 5; err = (err as { cause?: unknown }).cause, i++) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) return true;
  }
  return false;
}

/** Runs a write unless the connection met a lock moments ago; remembers a new one. */
export async function guardedWrite<T>(db: Db, run: () => Promise<T>): Promise<T> {
  assertNotBusy(db);
  try {
    return await run();
  } catch (e) {
    if (isBusyError(e)) markBusy(db);
    throw e;
  }
}

export function markBusy(db: Db): void {
  if (dialectOf(db) === "postgres") return;
  busyUntil.set(handleOf(db).conn.sqlite, Date.now() + HOLD_MS);
}

/** Synchronous on purpose: the check never yields, so nothing can take the connection in between. */
export function assertNotBusy(db: Db): void {
  if (dialectOf(db) === "postgres") return;
  const sqlite = handleOf(db).conn.sqlite;
  if (Date.now() >= (busyUntil.get(sqlite) ?? 0) || sqlite.inTransaction) return;
  if (lockIsFree(sqlite)) busyUntil.delete(sqlite);
  else throw Object.assign(new Error("database is locked by another process"), { code: "SQLITE_BUSY" });
}

/** Takes and gives back the write lock with a zero busy timeout: never waits. */
function lockIsFree(sqlite: Database): boolean {
  const { timeout } = sqlite.query("PRAGMA busy_timeout").get() as { timeout: number };
  sqlite.run("PRAGMA busy_timeout = 0");
  try {
    sqlite.run("BEGIN IMMEDIATE");
    sqlite.run("ROLLBACK");
    return true;
  } catch (e) {
    if (isBusyError(e)) return false;
    throw e;
  } finally {
    sqlite.run(`PRAGMA busy_timeout = ${Number(timeout)}`);
  }
}
