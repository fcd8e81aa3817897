import type { Statement } from "bun:sqlite";
import { type Db, onConnection, onConnectionNow } from "../client.ts";

// Module state: the ping's statement per connection, prepared once (no look-up of its text per probe), gone with it.
const pings = new WeakMap<object, Statement>();

/**
 * A cheap real read (/api/health): a healthy process with a broken database
 * is not healthy. Synchronous (undefined) when no transaction holds the
 * connection, a promise otherwise.
 */
export function pingDatabase(db: Db): Promise<void> | undefined {
  const done = onConnectionNow(db, (sqlite) => {
    let ping = pings.get(sqlite);
    if (!ping) pings.set(sqlite, (ping = sqlite.prepare("SELECT 1")));
    ping.get();
  });
  return done instanceof Promise ? done : undefined;
}

/** Takes the write lock and lets it go: a read-only mount, a full disk's journal or a lock held elsewhere all say no. */
export async function databaseWritable(db: Db): Promise<boolean> {
  return onConnection(db, (sqlite) => {
    try {
      sqlite.run("BEGIN IMMEDIATE");
      sqlite.run("ROLLBACK");
      return true;
    } catch {
      return false;
    }
  });
}

/** Touches the pages and statements a first real request needs (/api/warmup). */
export async function warmDatabase(db: Db): Promise<void> {
  await onConnection(db, (sqlite) => {
    sqlite.query("SELECT count(*) FROM users").get();
    sqlite.query("SELECT id FROM sessions ORDER BY id DESC LIMIT 1").get();
  });
}

/** Whether a table exists (a database of an older version lacks the newer ones). */
export async function tableExists(db: Db, name: string): Promise<boolean> {
  return onConnection(db, (sqlite) => !!sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name));
}

/** drizzle's migration bookkeeping: how many were applied, the newest one's timestamp; undefined when there is no table yet. */
export async function appliedMigrations(db: Db): Promise<{ n: number; last: number | null } | undefined> {
  if (!(await tableExists(db, "__drizzle_migrations"))) return undefined;
  return onConnection(
    db,
    (sqlite) => sqlite.query("SELECT count(*) AS n, max(created_at) AS last FROM __drizzle_migrations").get() as { n: number; last: number | null },
  );
}
