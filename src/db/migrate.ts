import { createHash } from "node:crypto";
import type { Db } from "./client.ts";
import { migrations } from "./migrations/index.ts";

type MigrationMeta = { sql: string[]; bps: boolean; folderMillis: number; hash: string };

/**
 * Applies the committed drizzle-kit migrations. They are embedded as text
 * (src/db/migrations/index.ts) rather than read from a folder, so the compiled
 * executable migrates with no files beside it. Same bookkeeping table and
 * hashes as drizzle's own folder migrator. Used by the server, CLI and tests
 * (which pass `list` to build a database of an older version).
 */
export function runMigrations(db: Db, list: ReadonlyArray<(typeof migrations)[number]> = migrations): number {
  const metas: MigrationMeta[] = list.map((m) => ({
    sql: m.sql.split("--> statement-breakpoint"),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: createHash("sha256").update(m.sql).digest("hex"),
  }));
  const before = appliedCount(db);
  // drizzle's dialect.migrate: the same code path as drizzle-orm/bun-sqlite/migrator.
  (db as unknown as { dialect: { migrate: (m: MigrationMeta[], s: unknown, c: object) => void }; session: unknown }).dialect.migrate(
    metas,
    (db as unknown as { session: unknown }).session,
    {},
  );
  return appliedCount(db) - before;
}

function appliedCount(db: Db): number {
  const exists = db.$client.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!exists) return 0;
  const row = db.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
  return row.n;
}
