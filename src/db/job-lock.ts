import { type Db, dialectOf } from "./client.ts";
import { postgresClient } from "./pg/client.ts";

/**
 * Runs one tick of a timed job on one server at a time. On PostgreSQL, where
 * several servers share the database, the tick holds a session advisory lock
 * (one key per job, hashtext of its name) on a connection reserved for the
 * tick: a server that finds it taken skips this tick (another server is doing
 * the work), and a server that dies mid-tick loses the lock with its
 * connection. On SQLite one server holds the database (src/system/lease.ts):
 * the tick just runs. Returns `{ ran: false }` when skipped.
 */
export async function underJobLock<T>(db: Db, job: string, run: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const pool = dialectOf(db) === "postgres" ? postgresClient(db) : undefined;
  if (!pool) return { ran: true, value: await run() };
  const conn = await pool.reserve();
  try {
    const [row] = await conn`SELECT pg_try_advisory_lock(hashtext(${`unisson-job:${job}`})) AS locked`;
    if (!row.locked) return { ran: false };
    try {
      return { ran: true, value: await run() };
    } finally {
      await conn`SELECT pg_advisory_unlock(hashtext(${`unisson-job:${job}`}))`;
    }
  } finally {
    conn.release();
  }
}
