import { closeDb, type Db, openDb } from "./client.ts";
import { explainOpenFailure } from "./open-failure.ts";
import { openPostgres, postgresClient } from "./pg/client.ts";

type Target = { databaseUrl?: string; databasePath: string };
type Pool = { max?: number; idleTimeout?: number };

/**
 * The application database the configuration names: PostgreSQL when
 * DATABASE_URL is set, else the SQLite file (DATA_DIR, DATABASE_PATH).
 * PostgreSQL's drizzle is handed on as the same `Db`: its tables are typed as
 * SQLite's (schema/pg-columns.ts) and the query modules use only what both
 * drivers have.
 */
export function openDatabase(config: Target, busyTimeoutMs?: number, pool?: Pool): Db {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, pool) as unknown as Db;
  return openDb(config.databasePath, busyTimeoutMs);
}

/**
 * openDatabase, then one statement to reach it, for the server and every
 * command: PostgreSQL connects only at its first query, which would otherwise
 * fail later as drizzle's « Failed query: … ». A failure to open or reach the
 * database becomes one French line naming its cause and what to do
 * (open-failure.ts).
 */
export async function connectDatabase(config: Target, busyTimeoutMs?: number, pool?: Pool): Promise<Db> {
  let db: Db | undefined;
  try {
    db = openDatabase(config, busyTimeoutMs, pool);
    await postgresClient(db)?.unsafe("SELECT 1");
    return db;
  } catch (e) {
    if (db) await closeDb(db).catch(() => {}); // the failure to open is the one to tell
    throw await explainOpenFailure(e, config);
  }
}
