import { sqliteColumns } from "./columns.ts";
import { defineTables } from "./tables.ts";

/** The SQLite tables as one object, in foreign-key order (tables.ts); index.ts exports each by name. */
export const sqliteTables = defineTables(sqliteColumns);
