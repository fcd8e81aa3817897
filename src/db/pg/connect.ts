import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";

/**
 * A PostgreSQL database through Bun's built-in client (no dependency added to
 * the executable) and drizzle's bun-sql driver. Asynchronous, a pool of
 * connections. Queries take the tables of src/db/schema/pg.ts.
 */
export type PgDb = ReturnType<typeof drizzle> & { $client: SQL };

export function openPostgres(url: string, max = 10): PgDb {
  const client = new SQL({ url, max, idleTimeout: 30 });
  return drizzle({ client }) as PgDb;
}

/** postgres:// or postgresql://, the only URLs PostgreSQL is reached by (DATABASE_URL, `db copy --to`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}
