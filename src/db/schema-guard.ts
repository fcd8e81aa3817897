import { frOps } from "../i18n/fr-ops.ts";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { backupDatabase } from "../admin/backup.ts";
import { RefusedError } from "../lib/errors.ts";
import { type Db, dialectOf } from "./client.ts";
import { getTableName } from "drizzle-orm";
import { appliedMigrations, tableExists } from "./health.ts";
import { sqliteTables } from "./schema/sqlite.ts";
import { runMigrations } from "./migrate.ts";
import { migrations, pgMigrations } from "./migrations/index.ts";
import { postgresClient } from "./pg/client.ts";
import { runPgMigrations } from "./pg/migrate.ts";
import { type PgDumpRule, pgDumpBackup } from "./pg/dump.ts";
import { isPostgresUrl } from "./pg/postgres-url.ts";

/** The database's schema version, where it stands, and the version this executable carries for its dialect. */
export type SchemaState = { version: number; expected: number; status: "empty" | "behind" | "current" | "newer" };

/**
 * Where the database stands against this executable, from drizzle's own
 * bookkeeping (drizzle applies every migration newer than the last recorded
 * one, so the last timestamp decides). Reads nothing else of the database.
 */
export async function schemaState(db: Db): Promise<SchemaState> {
  const list = dialectOf(db) === "postgres" ? pgMigrations : migrations;
  const expected = list.length;
  const row = await appliedMigrations(db);
  if (!row || row.n === 0) return { version: 0, expected, status: "empty" };
  const known = list.at(-1)!.when;
  const last = Number(row.last);
  if (last > known || row.n > expected) return { version: row.n, expected, status: "newer" };
  return { version: row.n, expected, status: last < known ? "behind" : "current" };
}

export function newerRefusal(path: string, state: SchemaState): RefusedError {
  if (!isPostgresUrl(path)) return new RefusedError(frOps.schema.newer(shown(path), state.version, state.expected));
  // pg_restore's URL without the masked password (PGPASSWORD gives it).
  const url = new URL(path);
  url.password = "";
  return new RefusedError(frOps.schema.newerPostgres(path, state.version, state.expected, url.toString()));
}

/** The database as messages name it: the SQLite file's full path, or PostgreSQL's URL (already without its password). */
function shown(path: string): string {
  return isPostgresUrl(path) ? path : resolve(path);
}

/**
 * The CLI's rule for opening a database (only `serve` and `migrate` migrate):
 * a missing file is refused unless the command may create it, a newer
 * schema is never read, an empty or older one asks for `unisson migrate`.
 */
export function refuseMissing(path: string): void {
  if (path !== ":memory:" && !isPostgresUrl(path) && !existsSync(path)) {
    throw new RefusedError(frOps.schema.missing(resolve(path)));
  }
}

export async function requireCurrentSchema(db: Db, path: string, opts: { allowBehind?: boolean } = {}): Promise<SchemaState> {
  const state = await schemaState(db);
  if (state.status === "newer") throw newerRefusal(path, state);
  // No Unisson schema at all (a new PostgreSQL database, or another application's): nothing to read yet.
  if (state.status === "empty") throw new RefusedError(frOps.schema.empty(shown(path)));
  if (state.status === "behind" && !opts.allowBehind) {
    throw new RefusedError(frOps.schema.behind(shown(path), state.version, state.expected));
  }
  return state;
}

/**
 * `serve` and `migrate`: refuses a newer database, and before migrating one
 * that holds data takes a verified backup, backups/pre-migrate-<version>.db
 * (the schema version it had), which is the way back to the previous executable;
 * on PostgreSQL pg_dump's backups/pre-migrate-<version>.dump (pg/dump.ts).
 */
export async function migrateWithBackup(
  db: Db,
  path: string,
  dataDir: string,
  pgDump: PgDumpRule = "if-present",
): Promise<{ applied: number; backup?: string; notice?: string }> {
  const state = await schemaState(db);
  if (state.status === "newer") throw newerRefusal(path, state);
  if (state.status === "empty") await refuseForeignTables(db, path);
  // PostgreSQL: pg_dump's backup (pg/dump.ts), then the migrations under the advisory lock (servers started together).
  const pool = postgresClient(db);
  if (pool) {
    const { file, notice } = state.status === "behind" ? pgDumpBackup(pool, dataDir, state.version, pgDump) : {};
    return { applied: await runPgMigrations(pool), backup: file, notice };
  }
  let backup: string | undefined;
  if (state.status === "behind" && path !== ":memory:") {
    const dir = join(dataDir, "backups");
    const name = `pre-migrate-${state.version}`;
    const target = existsSync(join(dir, `${name}.db`)) ? join(dir, `${name}-${Date.now()}.db`) : join(dir, `${name}.db`);
    backup = (await backupDatabase(db, target)).file;
  }
  return { applied: await runMigrations(db), backup };
}

/**
 * A database without Unisson's bookkeeping that already holds a table of one
 * of Unisson's names is another application's: migrating would stop half-way
 * on « relation "users" already exists ». Refused with the tables named. The
 * state is read again first: a server started at the same moment may have
 * just committed the whole schema (PostgreSQL migrates in one transaction).
 */
async function refuseForeignTables(db: Db, path: string): Promise<void> {
  const taken: string[] = [];
  for (const table of Object.values(sqliteTables)) {
    const name = getTableName(table);
    if (await tableExists(db, name)) taken.push(name);
  }
  if (taken.length > 0 && (await schemaState(db)).status === "empty") throw new RefusedError(frOps.schema.foreign(shown(path), taken.join(", ")));
}
