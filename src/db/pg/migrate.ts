import { createHash } from "node:crypto";
import type { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { type EmbeddedMigration, pgMigrations } from "../migrations/index.ts";

/**
 * The advisory lock migrations run under (any constant shared by every
 * Unisson server): servers started at the same moment on one database queue
 * on it, the first applies the migrations and the others then find nothing
 * left to do. Session-level, taken on one reserved connection, so it is
 * released with that connection even if the process dies half-way.
 */
const MIGRATION_LOCK = "7581620201"; // "unisson" migrations, any bigint would do

const MIGRATIONS_SCHEMA = "drizzle";
const MIGRATIONS_TABLE = "__drizzle_migrations";

type MigrationMeta = { sql: string[]; bps: boolean; folderMillis: number; hash: string };
type Migrator = { dialect: { migrate: (m: MigrationMeta[], s: unknown, c: object) => Promise<void> }; session: unknown };

/**
 * Applies the embedded PostgreSQL migrations (src/db/migrations/pg) the way
 * drizzle's own bun-sql migrator does (same bookkeeping table, same hashes),
 * but from the executable rather than a folder, and under the advisory lock.
 * Returns how many were applied by this call.
 */
export async function runPgMigrations(client: SQL, list: ReadonlyArray<EmbeddedMigration> = pgMigrations): Promise<number> {
  const metas: MigrationMeta[] = list.map((m) => ({
    sql: m.sql.split("--> statement-breakpoint"),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: createHash("sha256").update(m.sql).digest("hex"),
  }));
  const conn = await client.reserve();
  try {
    await conn.unsafe(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      const before = await appliedPgCount(conn);
      const db = drizzle({ client: conn }) as unknown as Migrator;
      await db.dialect.migrate(metas, db.session, { migrationsSchema: MIGRATIONS_SCHEMA, migrationsTable: MIGRATIONS_TABLE });
      return (await appliedPgCount(conn)) - before;
    } finally {
      await conn.unsafe(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    conn.release();
  }
}

/** How many migrations the database records as applied (0 for an empty database). */
export async function appliedPgCount(client: SQL): Promise<number> {
  const [row] = await client.unsafe(`SELECT to_regclass('${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}') IS NOT NULL AS present`);
  if (!row.present) return 0;
  const [count] = await client.unsafe(`SELECT count(*)::int AS n FROM ${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}`);
  return count.n as number;
}
