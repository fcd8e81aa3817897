import { blob, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The column vocabulary the tables are written in (src/db/schema/tables.ts),
 * SQLite's edition. Drizzle has no dialect-free schema, so the tables are
 * described once against this object and built twice: with these SQLite
 * builders (the types the whole code base sees) and with the PostgreSQL ones
 * of pg-columns.ts. Each entry names what a column means, not how a dialect
 * stores it:
 * - `id`: the auto-incremented primary key (an identity column on PostgreSQL);
 * - `int`: a 32-bit integer; `bigint`: an integer that can exceed 2^31
 *   (millisecond instants kept as numbers);
 * - `real`: a double; `timestamp`: an instant, integer milliseconds here
 *   (one unit, sortable), `timestamptz(3)` there; `flag`: a boolean, 0/1 here;
 * - `json`: a JSON value kept as its text (key order preserved on both);
 * - `bytes`: raw bytes (a file), a BLOB here, `bytea` there; read back as a Buffer.
 */
export const sqliteColumns = {
  table: sqliteTable,
  // Generic in the column's name where the tables used drizzle's builders directly, so every table keeps its exact type.
  id: () => integer("id").primaryKey({ autoIncrement: true }),
  /** A primary key the code chooses itself (the one-row lease table). */
  fixedId: () => integer("id").primaryKey(),
  int: <N extends string>(name: N) => integer(name),
  bigint: <N extends string>(name: N) => integer(name),
  real: <N extends string>(name: N) => real(name),
  text,
  timestamp: (name: string) => integer(name, { mode: "timestamp_ms" }),
  flag: (name: string) => integer(name, { mode: "boolean" }),
  /** Give the value's type with `.$type<T>()`. */
  json: <N extends string>(name: N) => text(name, { mode: "json" }),
  bytes: <N extends string>(name: N) => blob(name, { mode: "buffer" }),
  index,
  uniqueIndex,
};

export type Columns = typeof sqliteColumns;
