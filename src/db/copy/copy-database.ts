import { type Column, count, getTableColumns, getTableName, gt } from "drizzle-orm";
import { frCli } from "../../i18n/fr-cli.ts";
import { RefusedError } from "../../lib/errors.ts";
import type { Tables } from "../schema/tables.ts";
import type { Reseal } from "./council-keys.ts";
import type { AnyTable, Row, Side } from "./sides.ts";

/** Rows per read and per INSERT: well under both dialects' bound-parameter limits (500 rows x 20 columns). */
const CHUNK = 500;

export type CopyReport = { from: string; to: string; tables: Array<{ table: string; rows: number }>; rows: number };

type Name = keyof Tables;

/** Tables the migrations fill themselves (the council's six members and its settings row): the copy replaces their rows. */
const SEEDED_BY_MIGRATIONS: ReadonlySet<Name> = new Set<Name>(["councilMembers", "councilSettings"]);

/** The table's one-column primary key, and its field name in a row. */
function primaryKey(t: AnyTable): [Column, string] {
  const found = Object.entries(getTableColumns(t)).find(([, c]) => c.primary);
  if (!found) throw new Error(`${getTableName(t)} : pas de clé primaire sur une colonne`);
  return [found[1], found[0]];
}

async function rowCount(side: Side, name: Name): Promise<number> {
  const [row] = await side.db.select({ n: count() }).from(side.tables[name]);
  return Number(row!.n);
}

/**
 * `unisson db copy`: every table of `source` into the empty `target`, both
 * at this executable's schema. The target is migrated first and must hold
 * no row but those its migrations seed (replaced by the source's). The source is read on one snapshot (one read transaction: a
 * running server may go on writing) and the target written in one
 * transaction, table after table in foreign-key order (the order of
 * src/db/schema/tables.ts), ids kept; then the id counters are moved past
 * the copied ids and every table's row count is checked before the commit.
 * Reading with one dialect's drizzle tables and inserting with the other's
 * converts each value (milliseconds and Dates, 0/1 and booleans, JSON).
 * The search index is kept by the target itself: SQLite's triggers fill
 * chat_search as messages arrive, PostgreSQL generates search_vector.
 * `reseal` writes each council member's key sealed for the target.
 */
export async function copyDatabase(source: Side, target: Side, reseal: Reseal = (row) => row): Promise<CopyReport> {
  await source.requireCurrent();
  await target.migrate();
  const names = Object.keys(target.tables) as Name[];
  for (const name of names) {
    const n = await rowCount(target, name);
    if (n > 0 && !SEEDED_BY_MIGRATIONS.has(name)) throw new RefusedError(frCli.db.targetNotEmpty(target.label, getTableName(target.tables[name]), n));
  }

  const tables: CopyReport["tables"] = [];
  await source.begin("read");
  try {
    await target.begin("write");
    try {
      for (const name of SEEDED_BY_MIGRATIONS) await target.db.delete(target.tables[name]);
      for (const name of names) {
        const expected = await rowCount(source, name);
        const from = source.tables[name];
        // Pages follow the primary key (every table has a one-column key): each page is an index range, however large the table.
        const [key, field] = primaryKey(from);
        let last: unknown;
        for (;;) {
          const page = source.db.select().from(from);
          const rows: Row[] = await (last === undefined ? page : page.where(gt(key, last))).orderBy(key).limit(CHUNK);
          if (!rows.length) break;
          // The council's keys are sealed again for the target (council-keys.ts); a key that no longer opens rolls the whole copy back.
          await target.db.insert(target.tables[name]).values(name === "councilMembers" ? rows.map(reseal) : rows);
          last = rows.at(-1)![field];
        }
        const copied = await rowCount(target, name);
        if (copied !== expected) throw new RefusedError(frCli.db.countMismatch(getTableName(from), expected, copied));
        tables.push({ table: getTableName(from), rows: copied });
      }
      await target.raiseCounters(await source.counters());
      await target.commit();
    } catch (e) {
      await target.rollback().catch(() => {}); // the first error is the one to tell
      throw e;
    }
  } finally {
    await source.rollback().catch(() => {});
  }
  return { from: source.label, to: target.label, tables, rows: tables.reduce((a, t) => a + t.rows, 0) };
}
