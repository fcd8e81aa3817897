import type { Database } from "bun:sqlite";

/**
 * bun:sqlite waits for a lock synchronously (the connection's busy timeout),
 * freezing the event loop. Once one write on a connection gave up on a lock
 * held by another process, the writes that consult this guard (rate-limit
 * counters, timed jobs) fail at once for a short while with the same
 * SQLITE_BUSY (answered 503) instead of freezing the loop once each: while
 * the connection is marked, each such write first asks for the lock without
 * waiting, and goes ahead (clearing the mark) as soon as it is free again.
 */
// Module state: a mark per connection (deps.db.$client), keyed by it, like bun:sqlite's own lock wait.
const busyUntil = new WeakMap<Database, number>();
const HOLD_MS = 2_000;

export function isBusyError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** Runs a write unless the connection met a lock moments ago; remembers a new one. */
export function guardedWrite<T>(sqlite: Database, run: () => T): T {
  assertNotBusy(sqlite);
  try {
    return run();
  } catch (e) {
    if (isBusyError(e)) markBusy(sqlite);
    throw e;
  }
}

export function markBusy(sqlite: Database): void {
  busyUntil.set(sqlite, Date.now() + HOLD_MS);
}

export function assertNotBusy(sqlite: Database): void {
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
