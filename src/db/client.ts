import { Database, type Statement } from "bun:sqlite";
import { explainNotWritable } from "../system/data-dir.ts";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { DrizzleQueryError, fillPlaceholders } from "drizzle-orm";
import { drizzle, RemotePreparedQuery, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import { type Connection, enterOrdinary, enterTransaction, newConnection } from "./connection.ts";
import { compileRowMapper, type RowMapper } from "./row-mapper.ts";
import { closePostgres } from "./pg/client.ts";
import * as schema from "./schema/index.ts";
import { type Dialect, selectTables } from "./schema/index.ts";

/**
 * The asynchronous drizzle database every query module receives: the
 * ordinary handle, or a transaction's handle (same type, see transaction.ts).
 * `$client` is the SQLite connection: for src/db and tests only (a code test
 * keeps it out of src/ and cli/, so the rest stays dialect-free).
 */
export type Db = SqliteRemoteDatabase<typeof schema> & { $client: Database };

type Handle = { conn: Connection; kind: "ordinary" | "transaction"; tx: Db };
// Module state: which connection (and which kind of handle) a Db is, for transaction.ts and the raw helpers of src/db.
const handles = new WeakMap<Db, Handle>();

export function handleOf(db: Db): Handle {
  const h = handles.get(db);
  if (!h) throw new Error("Base de données inconnue (pas ouverte par openDb)");
  return h;
}

/**
 * Which database a handle talks to: every SQLite handle (ordinary or a
 * transaction's) is registered here; anything else is PostgreSQL's drizzle
 * (src/db/pg/client.ts), whose transaction handles drizzle makes itself.
 * For src/db only: nothing above the query modules asks.
 */
export function dialectOf(db: Db): Dialect {
  return handles.has(db) ? "sqlite" : "postgres";
}

/** How long a CLI statement waits for another process's write lock: the CLI may wait, nobody else waits on it. */
const CLI_BUSY_TIMEOUT_MS = 5000;
/**
 * The server's wait: bun:sqlite waits synchronously, freezing every request
 * meanwhile, so a write meeting a lock held elsewhere gives up after this and
 * answers 503 (app.ts), well within Docker's 5 s healthcheck.
 */
export const SERVER_BUSY_TIMEOUT_MS = 1000;

/**
 * Opens the SQLite database with the pragmas of DECISIONS.md (Storage) and
 * checks that SQLite really applied them: a read-only mount or an old build
 * that silently ignores one would otherwise lose payments or fail under load.
 */
export function openDb(path: string, busyTimeoutMs = CLI_BUSY_TIMEOUT_MS): Db {
  selectTables("sqlite");
  const memory = path === ":memory:";
  if (!memory) protectFiles(path);
  const sqlite = new Database(path, { create: true, strict: true });
  // busy_timeout first: every later statement may meet another writer (server + CLI).
  sqlite.run(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  if (!memory) sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
  checkPragmas(sqlite, memory, busyTimeoutMs);
  return wrap(sqlite);
}

type Method = "run" | "all" | "values" | "get";

/** Runs one statement of the drizzle proxy: rows as arrays (drizzle maps them), prepared statements cached by SQL. */
function execute(conn: Connection, sql: string, params: unknown[], method: Method, stmt = conn.sqlite.query(sql)) {
  // bun:sqlite keeps the statements query() prepared, by text, and finalizes them when the connection closes.
  if (method === "run") {
    stmt.run(...(params as never[]));
    return { rows: [] };
  }
  const rows = stmt.values(...(params as never[]));
  return { rows: method === "get" ? (rows[0] as unknown as unknown[]) : rows };
}

function wrap(sqlite: Database): Db {
  const conn = newConnection(sqlite);
  const ordinary = drizzle(
    (sql, params, method) => {
      // The hot path: no transaction open, the statement runs at once, with no AsyncLocalStorage read and no
      // promise of ours (drizzle awaits what this returns, and awaiting a plain value costs one microtask).
      if (!conn.holder) return execute(conn, sql, params, method) as unknown as Promise<{ rows: unknown[] }>;
      enterOrdinary(conn);
      return afterTransaction(conn, sql, params, method);
    },
    { schema },
  ) as Db;
  const tx = drizzle(
    (sql, params, method) => {
      enterTransaction(conn);
      return Promise.resolve(execute(conn, sql, params, method));
    },
    { schema },
  ) as Db;
  addFastPath(ordinary, conn);
  ordinary.$client = sqlite;
  tx.$client = sqlite;
  handles.set(ordinary, { conn, kind: "ordinary", tx });
  handles.set(tx, { conn, kind: "transaction", tx });
  return ordinary;
}

/**
 * The ordinary handle's statements when no transaction is open: drizzle's
 * asynchronous prepared query wraps each statement in three async functions
 * (measured: +0.25 µs a statement, ~7 % of /api/auth/me under load, see
 * docs/BENCHMARKS.md); this one runs the statement and maps its rows as
 * drizzle does (mapAllResult, mapGetResult), in one resolved promise. With a
 * transaction open it hands over to drizzle's own path, through the gate.
 * Rows are mapped by a mapper compiled once per prepared query (row-mapper.ts)
 * where drizzle's own mapping would give the same objects.
 * It leans on drizzle internals (the proxy session's prepareQuery and its
 * prepared query's fields): the whole test suite runs through it.
 */
function addFastPath(db: Db, conn: Connection): void {
  type Prepared = RemotePreparedQuery & {
    query: { sql: string; params: unknown[] };
    mapGetResult(rows: unknown): unknown;
    mapAllResult(rows: unknown): unknown;
    /** bun:sqlite's statement, kept by a query prepared once and run often (the session lookup): no look-up by its text each time. */
    statement?: Statement;
    /** Its rows' mapper (null: drizzle's own), compiled on first use. */
    mapRow?: RowMapper | null;
  };
  const slow = RemotePreparedQuery.prototype as unknown as Record<Method, (this: Prepared, values?: Record<string, unknown>) => Promise<unknown>>;
  const now = (q: Prepared, method: Method, values: Record<string, unknown> | undefined, map: (rows: unknown) => unknown): Promise<unknown> => {
    if (conn.holder) return slow[method].call(q, values);
    const params = fillPlaceholders(q.query.params, values ?? {});
    try {
      q.statement ??= conn.sqlite.query(q.query.sql);
      return Promise.resolve(map(execute(conn, q.query.sql, params, method, q.statement).rows));
    } catch (e) {
      return Promise.reject(new DrizzleQueryError(q.query.sql, params, e as Error));
    }
  };
  const mapperOf = (q: Prepared) => {
    if (q.mapRow === undefined) q.mapRow = compileRowMapper(q as never) ?? null;
    return q.mapRow;
  };
  class FastQuery extends RemotePreparedQuery {
    override all(values?: Record<string, unknown>) {
      const q = this as unknown as Prepared;
      return now(q, "all", values, (rows) => {
        const map = mapperOf(q);
        return map ? (rows as unknown[][]).map(map) : q.mapAllResult(rows);
      }) as never;
    }
    override get(values?: Record<string, unknown>) {
      const q = this as unknown as Prepared;
      return now(q, "get", values, (row) => {
        const map = mapperOf(q);
        if (!map) return q.mapGetResult(row);
        return row ? map(row as unknown[]) : undefined;
      }) as never;
    }
    override values(values?: Record<string, unknown>) {
      return now(this as unknown as Prepared, "values", values, (rows) => rows) as never;
    }
    override run(values?: Record<string, unknown>) {
      return now(this as unknown as Prepared, "run", values, (rows) => ({ rows })) as never;
    }
  }
  const session = (db as unknown as { session: Record<string, unknown> }).session;
  session.prepareQuery = (
    query: unknown,
    fields: unknown,
    executeMethod: unknown,
    isResponseInArrayMode: unknown,
    customResultMapper: unknown,
    queryMetadata: unknown,
    cacheConfig: unknown,
  ) =>
    new (FastQuery as unknown as new (...a: unknown[]) => unknown)(
      session.client,
      query,
      session.logger,
      session.cache,
      queryMetadata,
      cacheConfig,
      fields,
      executeMethod,
      isResponseInArrayMode,
      customResultMapper,
    );
}

/** A statement of another request met an open transaction: it runs once the connection is free (checked again right before). */
async function afterTransaction(conn: Connection, sql: string, params: unknown[], method: Method) {
  while (conn.holder) await conn.released;
  return execute(conn, sql, params, method);
}

/** Closes the connection, or PostgreSQL's pool (server shutdown, end of a CLI command, tests). */
export async function closeDb(db: Db): Promise<void> {
  if (dialectOf(db) === "postgres") return closePostgres(db);
  handleOf(db).conn.sqlite.close();
}

/**
 * The database holds password hashes, sessions and mails: readable by its
 * owner only. The file is created 0600 before SQLite opens it (SQLite gives
 * the -wal and -shm files the database's mode), and files left by an older
 * version are narrowed to 0600 (docs/SECURITY.md, "Secrets at rest").
 */
function protectFiles(path: string): void {
  explainNotWritable(dirname(path), () => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
    for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  });
}

function pragma(sqlite: Database, name: string): unknown {
  const row = sqlite.query(`PRAGMA ${name}`).get() as Record<string, unknown> | null;
  return row ? Object.values(row)[0] : undefined;
}

function checkPragmas(sqlite: Database, memory = false, busyTimeoutMs = CLI_BUSY_TIMEOUT_MS): void {
  const expected: Array<[string, unknown]> = [
    ["busy_timeout", Math.trunc(busyTimeoutMs)],
    ["synchronous", 2], // FULL
    ["foreign_keys", 1],
  ];
  if (!memory) expected.push(["journal_mode", "wal"]);
  for (const [name, want] of expected) {
    const got = pragma(sqlite, name);
    if (got !== want) {
      throw new Error(`SQLite n'a pas appliqué PRAGMA ${name} (attendu ${want}, obtenu ${String(got)})`);
    }
  }
}

/**
 * Runs synchronous bun:sqlite code on a handle's connection under the same
 * rules as its statements (waits for another transaction, refused on the
 * wrong handle). For src/db only: the SQLite-specific helpers of src/db/sqlite/.
 */
/**
 * onConnection without a promise when none is needed: on the ordinary handle
 * with no transaction open (the misuse check can only fire while one is, as
 * in the fast path above), `fn` runs now and its value comes back as it is;
 * otherwise onConnection's promise. For the per-request probes
 * (/api/health): each async layer is a promise and a microtask turn carrying
 * the request's log context (docs/BENCHMARKS.md, "Third round").
 */
export function onConnectionNow<T>(db: Db, fn: (sqlite: Database) => T): T | Promise<T> {
  const { conn, kind } = handleOf(db);
  return kind === "ordinary" && !conn.holder ? fn(conn.sqlite) : onConnection(db, fn);
}

export async function onConnection<T>(db: Db, fn: (sqlite: Database) => T): Promise<T> {
  const { conn, kind } = handleOf(db);
  if (kind === "transaction") enterTransaction(conn);
  else {
    enterOrdinary(conn);
    while (conn.holder) await conn.released;
  }
  return fn(conn.sqlite);
}

/**
 * A time as a prepared statement's placeholder binds it (raw, past drizzle's
 * column mapping): SQLite stores milliseconds, PostgreSQL's client takes the Date.
 */
export function placeholderTime(db: Db, at: Date): number | Date {
  return dialectOf(db) === "postgres" ? at : at.getTime();
}
