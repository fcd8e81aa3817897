import { count, getTableName, is, Table } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import * as schema from "../../src/db/schema/index.ts";
import { onPostgres } from "./test-database.ts";

/**
 * The row count of every table, by name: on SQLite every table of
 * sqlite_master (the search index's tables included), on PostgreSQL every
 * table of the schema, through the data layer.
 */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  if (!onPostgres) {
    const names = (
      db.$client.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'").all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    return Object.fromEntries(names.map((t) => [t, (db.$client.query(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]));
  }
  const tables = Object.values(schema).filter((t): t is typeof schema.users => is(t, Table));
  const out: Record<string, number> = {};
  for (const t of tables) out[getTableName(t)] = (await db.select({ n: count() }).from(t))[0]!.n;
  return out;
}
