import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { pgTables } from "../schema/pg.ts";
import { selectTables } from "../schema/index.ts";

/**
 * How many connections one server keeps to PostgreSQL: a transaction holds
 * one for its whole body (charging a request, a webhook), other requests take
 * the others. Ten per server stays far below PostgreSQL's default 100 with
 * several servers and the CLI.
 */
const POOL_SIZE = 10;

export type PostgresDb = ReturnType<typeof drizzle<typeof pgTables>>;

// Module state: each open PostgreSQL handle's client (pool), to close it and to run raw SQL beside drizzle.
const clients = new WeakMap<object, SQL>();

/**
 * Opens the application database on PostgreSQL: Bun's built-in client (a
 * pool) under drizzle's bun-sql driver, with the pg tables selected for the
 * whole process (schema/index.ts). Nothing is sent before the first query.
 */
export function openPostgres(url: string, pool: { max?: number; idleTimeout?: number } = {}): PostgresDb {
  selectTables("postgres");
  const client = new SQL({ url, max: pool.max ?? POOL_SIZE, idleTimeout: pool.idleTimeout ?? 0, connectionTimeout: 10 });
  const db = drizzle({ client, schema: pgTables });
  clients.set(db, client);
  return db;
}

/** The pool under an ordinary handle opened by openPostgres (undefined for a transaction's handle or a SQLite one). */
export function postgresClient(db: object): SQL | undefined {
  return clients.get(db);
}

export async function closePostgres(db: object): Promise<void> {
  await clients.get(db)?.close();
}
