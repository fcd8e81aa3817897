import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, dialectOf } from "./client.ts";

/**
 * SQL fragments both SQLite and PostgreSQL read the same way, for what each
 * spells its own way (SQLite's two-argument MAX/MIN, instr, negative substr).
 */

/** `%`, `_` and `\` taken literally in a LIKE pattern (used with ESCAPE '\'). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** `value` contains `part` (case as LIKE has it: ASCII-insensitive on SQLite, sensitive on PostgreSQL: lower() both sides for certainty). */
export function containsText(value: SQLWrapper, part: string): SQL {
  return sql`${value} LIKE ${`%${likeLiteral(part)}%`} ESCAPE '\\'`;
}

/** `value` ends with `suffix`. */
export function endsWithText(value: SQLWrapper, suffix: string): SQL {
  return sql`${value} LIKE ${`%${likeLiteral(suffix)}`} ESCAPE '\\'`;
}

/** The value, or 0 when negative (SQLite's MAX(0, v), PostgreSQL's GREATEST(0, v)). */
export function atLeastZero(value: SQL | SQLWrapper): SQL {
  return sql`(CASE WHEN ${value} < 0 THEN 0 ELSE ${value} END)`;
}

/** The value, at most `max`. */
export function atMost(value: SQL | SQLWrapper, max: number): SQL {
  return sql`(CASE WHEN ${value} > ${max} THEN ${max} ELSE ${value} END)`;
}

/** The UTC day (YYYY-MM-DD) of a timestamp column, in the SQL of the handle's database (the one fragment spelled per dialect). */
export function utcDay(db: Db, column: SQLWrapper): SQL<string> {
  return dialectOf(db) === "postgres"
    ? sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
    : sql<string>`strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`;
}

/**
 * The database's clock, `ms` milliseconds ago (0: now), as a timestamp of
 * either dialect (timestamptz there, integer milliseconds here). Run
 * liveness writes and compares heartbeats with it, never with a server's
 * clock: servers sharing a database may disagree on the time.
 */
export function dbTimeAgo(db: Db, ms = 0): SQL {
  const back = sql.raw(String(Math.trunc(ms)));
  return dialectOf(db) === "postgres" ? sql`(now() - ${back} * interval '1 millisecond')` : sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER) - ${back})`;
}
