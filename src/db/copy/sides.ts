import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { openDb } from "../client.ts";
import { runMigrations } from "../migrate.ts";
import { pgMigrations } from "../migrations/index.ts";
import { appliedPgCount, runPgMigrations } from "../pg/migrate.ts";
import { safeUrl } from "../pg/postgres-url.ts";
import { pgTables } from "../schema/pg.ts";
import { sqliteTables } from "../schema/sqlite.ts";
import type { Tables } from "../schema/tables.ts";
import { requireCurrentSchema } from "../schema-guard.ts";
import { frCli } from "../../i18n/fr-cli.ts";
import { RefusedError } from "../../lib/errors.ts";

/** A row as drizzle reads it: Dates, booleans and JSON values, the same on both dialects. */
export type Row = Record<string, unknown>;
/** One of `Tables`' values, whichever dialect built it. */
export type AnyTable = Tables[keyof Tables];

/**
 * What the copy asks of drizzle, the same on both dialects (a bun:sqlite
 * query is awaitable too, it just runs at once). The tables of pg.ts are
 * typed as SQLite's (pg-columns.ts), hence this one loose shape.
 */
type Page = { orderBy(...c: unknown[]): { limit(n: number): Promise<Row[]> } };
export type Queryable = {
  select(fields?: Row): { from(t: AnyTable): Page & { where(condition: unknown): Page } & Promise<Row[]> };
  insert(t: AnyTable): { values(rows: Row[]): Promise<unknown> };
  /** Empties a table the migrations seeded (copy-database.ts). */
  delete(t: AnyTable): Promise<unknown>;
};

/**
 * One end of `unisson db copy`: a database of one dialect, its drizzle
 * tables, its transaction statements, and its id counters (sqlite_sequence,
 * PostgreSQL identity sequences), so copied ids are never handed out again.
 */
export type Side = {
  dialect: "sqlite" | "postgres";
  /** What the operator reads: the file, or host and database (never the password). */
  label: string;
  db: Queryable;
  tables: Tables;
  /** Target: brings a new or empty database to this executable's schema. */
  migrate(): Promise<void>;
  /** Source: refuses (in French) a database whose schema is not this executable's. */
  requireCurrent(): Promise<void>;
  /** A read transaction on one snapshot (source), or a write transaction (target). */
  begin(mode: "read" | "write"): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** The highest id ever handed out per table (may exceed the highest id left). */
  counters(): Promise<Map<string, number>>;
  /** After the copy: every counter at least the source's and past the largest id copied. */
  raiseCounters(source: Map<string, number>): Promise<void>;
  close(): Promise<void>;
};

export function sqliteSide(path: string): Side {
  const db = openDb(path);
  const run = (q: string, ...params: Array<string | number>) => db.$client.query(q).run(...params);
  return {
    dialect: "sqlite",
    label: path,
    db: db as unknown as Queryable,
    tables: sqliteTables,
    async migrate() {
      await runMigrations(db);
    },
    async requireCurrent() {
      await requireCurrentSchema(db, path);
    },
    async begin(mode) {
      run(mode === "read" ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE");
      // A deferred transaction takes its snapshot at its first read: take it now.
      if (mode === "read") db.$client.query("SELECT count(*) FROM users").get();
    },
    async commit() {
      run("COMMIT");
    },
    async rollback() {
      if (db.$client.inTransaction) run("ROLLBACK");
    },
    async counters() {
      const rows = db.$client.query("SELECT name, seq FROM sqlite_sequence").all() as { name: string; seq: number }[];
      return new Map(rows.map((r) => [r.name, Number(r.seq)]));
    },
    async raiseCounters(source) {
      // AUTOINCREMENT tables already count past every id inserted; only gaps left by deleted rows remain to carry over.
      for (const [name, seq] of source) {
        run("INSERT INTO sqlite_sequence (name, seq) SELECT ?1, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)", name);
        run("UPDATE sqlite_sequence SET seq = max(seq, ?2) WHERE name = ?1", name, seq);
      }
    },
    async close() {
      db.$client.close();
    },
  };
}

/**
 * PostgreSQL through one reserved connection, so BEGIN and COMMIT frame
 * every statement of the copy.
 */
export async function postgresSide(url: string): Promise<Side> {
  // Two connections: the copy's own, and the migrations' (which reserve theirs under the advisory lock).
  const client = new SQL({ url, max: 2, connectionTimeout: 10 });
  const conn = await client.reserve();
  const db = drizzle({ client: conn });
  return {
    dialect: "postgres",
    label: safeUrl(url),
    db: db as unknown as Queryable,
    tables: pgTables,
    async migrate() {
      await runPgMigrations(client);
    },
    async requireCurrent() {
      const applied = await appliedPgCount(conn);
      if (applied !== pgMigrations.length) throw new RefusedError(frCli.db.pgSchemaNotCurrent(safeUrl(url), applied, pgMigrations.length));
    },
    async begin(mode) {
      await conn.unsafe(mode === "read" ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
    },
    async commit() {
      await conn.unsafe("COMMIT");
    },
    async rollback() {
      await conn.unsafe("ROLLBACK");
    },
    async counters() {
      const rows = (await conn.unsafe(
        `SELECT c.table_name AS name, pg_sequence_last_value(pg_get_serial_sequence(quote_ident(c.table_name), c.column_name)::regclass) AS seq
         FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.is_identity = 'YES'`,
      )) as { name: string; seq: string | number | null }[];
      return new Map(rows.filter((r) => r.seq !== null).map((r) => [r.name, Number(r.seq)]));
    },
    async raiseCounters(source) {
      const identities = (await conn.unsafe(
        "SELECT table_name AS name, column_name AS col FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'",
      )) as { name: string; col: string }[];
      for (const { name, col } of identities) {
        const [row] = await conn.unsafe(`SELECT coalesce(max("${col}"), 0)::bigint AS top FROM "${name}"`);
        const next = Math.max(Number(row.top), source.get(name) ?? 0);
        if (next > 0) await conn.unsafe(`SELECT setval(pg_get_serial_sequence('"${name}"', '${col}'), ${next}, true)`);
      }
    },
    async close() {
      conn.release();
      await client.close();
    },
  };
}
