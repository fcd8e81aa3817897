import { createHash } from "node:crypto";
import type { Db } from "./client.ts";
import { appliedMigrations } from "./sqlite/health.ts";
import { migrations } from "./migrations/index.ts";

type MigrationMeta = { sql: string[]; bps: boolean; folderMillis: number; hash: string };

/**
 * Applies the committed drizzle-kit migrations. They are embedded as text
 * (src/db/migrations/index.ts) rather than read from a folder, so the compiled
 * executable migrates with no files beside it. Same bookkeeping table and
 * hashes as drizzle's own folder migrator. Used by the server, CLI and tests
 * (which pass `list` to build a database of an older version).
 */
export async function runMigrations(db: Db, list: ReadonlyArray<(typeof migrations)[number]> = migrations): Promise<number> {
  const metas: MigrationMeta[] = list.map((m) => ({
    sql: m.sql.split("--> statement-breakpoint"),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: createHash("sha256").update(m.sql).digest("hex"),
  }));
  const before = await appliedCount(db);
  // drizzle's dialect.migrate: the same code path as drizzle-orm/sqlite-proxy/migrator.
  await (db as unknown as { dialect: { migrate: (m: MigrationMeta[], s: unknown, c: object) => Promise<void> }; session: unknown }).dialect.migrate(
    metas,
    (db as unknown as { session: unknown }).session,
    {},
  );
  return (await appliedCount(db)) - before;
}

async function appliedCount(db: Db): Promise<number> {
  return (await appliedMigrations(db))?.n ?? 0;
}
