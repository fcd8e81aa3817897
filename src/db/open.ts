import { type Db, openDb } from "./client.ts";
import { openPostgres } from "./pg/client.ts";

/**
 * The application database the configuration names: PostgreSQL when
 * DATABASE_URL is set, else the SQLite file (DATA_DIR, DATABASE_PATH).
 * PostgreSQL's drizzle is handed on as the same `Db`: its tables are typed as
 * SQLite's (schema/pg-columns.ts) and the query modules use only what both
 * drivers have.
 */
export function openDatabase(
  config: { databaseUrl?: string; databasePath: string },
  busyTimeoutMs?: number,
  pool?: { max?: number; idleTimeout?: number },
): Db {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, pool) as unknown as Db;
  return openDb(config.databasePath, busyTimeoutMs);
}
