import { integer } from "drizzle-orm/sqlite-core";

/** Millisecond timestamps everywhere: one unit, sortable, and the same on libSQL. */
export const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });
export const flag = (name: string) => integer(name, { mode: "boolean" });
