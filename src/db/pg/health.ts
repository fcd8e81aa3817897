import { sql } from "drizzle-orm";
import { pgRows as rows } from "./rows.ts";

/**
 * PostgreSQL's side of src/db/health.ts. Raw SQL through drizzle's
 * `execute`, which works on an ordinary handle and a transaction's alike.
 */

export async function pingPostgres(db: unknown): Promise<void> {
  await rows(db, sql`SELECT 1`);
}

/** A primary that accepts writes: not a standby in recovery, not a read-only default. */
export async function postgresWritable(db: unknown): Promise<boolean> {
  try {
    const [row] = await rows<{ standby: boolean; ro: string }>(
      db,
      sql`SELECT pg_is_in_recovery() AS standby, current_setting('default_transaction_read_only') AS ro`,
    );
    return !!row && !row.standby && row.ro === "off";
  } catch {
    return false;
  }
}

export async function warmPostgres(db: unknown): Promise<void> {
  await rows(db, sql`SELECT count(*) FROM users`);
}

export async function postgresTableExists(db: unknown, name: string): Promise<boolean> {
  const [row] = await rows<{ present: boolean }>(db, sql`SELECT to_regclass(${`public.${name}`}) IS NOT NULL AS present`);
  return !!row?.present;
}

/** drizzle's bookkeeping (schema "drizzle", see pg/migrate.ts), in the shape of SQLite's: count and newest timestamp. */
export async function appliedPgMigrations(db: unknown): Promise<{ n: number; last: number | null } | undefined> {
  const [present] = await rows<{ present: boolean }>(db, sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!present?.present) return undefined;
  const [row] = await rows<{ n: number; last: string | null }>(db, sql`SELECT count(*)::int AS n, max(created_at) AS last FROM drizzle.__drizzle_migrations`);
  return { n: row!.n, last: row!.last === null ? null : Number(row!.last) };
}
