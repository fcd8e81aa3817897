import type { SQL } from "drizzle-orm";

type Executes = { execute(q: SQL): Promise<unknown> };

/**
 * PostgreSQL's own SQL through drizzle's `execute`, which works on an
 * ordinary handle and a transaction's alike: its rows, named by the query's
 * aliases. The pg/ modules' one way to run raw SQL.
 */
export async function pgRows<T>(db: unknown, q: SQL): Promise<T[]> {
  return (await (db as Executes).execute(q)) as T[];
}
