import { Column, is, SQL, Subquery } from "drizzle-orm";

/** A selected field as drizzle's prepared query lists it: where it goes in the row object, and what decodes it. */
export type SelectedField = { path: string[]; field: unknown };
type Decoder = { mapFromDriverValue(value: unknown): unknown };
export type RowMapper = (row: unknown[]) => Record<string, unknown>;

/**
 * drizzle's mapResultRow (drizzle-orm/utils.js) with its per-row work done
 * once per prepared query: which decoder each column takes and where it goes.
 * drizzle finds them again for every column of every row (an `is()` walk of
 * the prototype chain for each): ~2 µs of the ~20-column user row that every
 * authenticated request reads (docs/BENCHMARKS.md, "Per-request cost").
 *
 * Undefined when the query needs drizzle's own mapping: a custom result
 * mapper (relational queries), or a left or full join, whose nested objects
 * drizzle nulls when their table matched nothing. Without those, drizzle's
 * nulling never fires (every table of the query is marked not nullable), and
 * this mapping gives the same objects.
 */
export function compileRowMapper(query: {
  fields?: SelectedField[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}): RowMapper | undefined {
  const { fields, customResultMapper, joinsNotNullableMap } = query;
  if (!fields || customResultMapper) return undefined;
  if (joinsNotNullableMap && Object.values(joinsNotNullableMap).some((notNullable) => !notNullable)) return undefined;
  const columns = fields.map(({ path, field }) => ({ parents: path.slice(0, -1), key: path[path.length - 1]!, decoder: decoderOf(field) }));
  return (row) => {
    const result: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const { parents, key, decoder } = columns[i]!;
      let node = result;
      for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
      const raw = row[i];
      node[key] = raw === null ? null : decoder.mapFromDriverValue(raw);
    }
    return result;
  };
}

/** The decoder drizzle's mapResultRow picks for a field. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as unknown as Decoder;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}
