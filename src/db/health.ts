import { type Db, dialectOf } from "./client.ts";
import * as pg from "./pg/health.ts";
import * as lite from "./sqlite/health.ts";

/**
 * The database checks of /api/health, /api/health/ready and the schema
 * guard, on whichever database the handle talks to (src/db/sqlite/health.ts,
 * src/db/pg/health.ts).
 */
/** Undefined when SQLite answered at once (no promise on the probe's common path), else the promise of the answer. */
export function pingDatabase(db: Db): Promise<void> | undefined {
  return dialectOf(db) === "postgres" ? pg.pingPostgres(db) : lite.pingDatabase(db);
}

export function databaseWritable(db: Db): Promise<boolean> {
  return dialectOf(db) === "postgres" ? pg.postgresWritable(db) : lite.databaseWritable(db);
}

export function warmDatabase(db: Db): Promise<void> {
  return dialectOf(db) === "postgres" ? pg.warmPostgres(db) : lite.warmDatabase(db);
}

export function tableExists(db: Db, name: string): Promise<boolean> {
  return dialectOf(db) === "postgres" ? pg.postgresTableExists(db, name) : lite.tableExists(db, name);
}

export function appliedMigrations(db: Db): Promise<{ n: number; last: number | null } | undefined> {
  return dialectOf(db) === "postgres" ? pg.appliedPgMigrations(db) : lite.appliedMigrations(db);
}
