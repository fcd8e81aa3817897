import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema/index.ts";

export type Db = ReturnType<typeof drizzle<typeof schema>> & { $client: Database };

/**
 * Opens the SQLite database with the pragmas of DECISIONS.md (Storage) and
 * checks that SQLite really applied them: a read-only mount or an old build
 * that silently ignores one would otherwise lose payments or fail under load.
 */
/** How long a CLI statement waits for another process's write lock: the CLI may wait, nobody else waits on it. */
const CLI_BUSY_TIMEOUT_MS = 5000;
/**
 * The server's wait: bun:sqlite waits synchronously, freezing every request
 * meanwhile, so a write meeting a lock held elsewhere gives up after this and
 * answers 503 (app.ts), well within Docker's 5 s healthcheck.
 */
export const SERVER_BUSY_TIMEOUT_MS = 1000;

export function openDb(path: string, busyTimeoutMs = CLI_BUSY_TIMEOUT_MS): Db {
  const memory = path === ":memory:";
  if (!memory) protectFiles(path);
  const sqlite = new Database(path, { create: true, strict: true });
  // busy_timeout first: every later statement may meet another writer (server + CLI).
  sqlite.run(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  if (!memory) sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
  checkPragmas(sqlite, memory, busyTimeoutMs);
  return drizzle({ client: sqlite, schema }) as Db;
}

/**
 * The database holds password hashes, sessions and mails: readable by its
 * owner only. The file is created 0600 before SQLite opens it (SQLite gives
 * the -wal and -shm files the database's mode), and files left by an older
 * version are narrowed to 0600 (docs/SECURITY.md, "Secrets at rest").
 */
function protectFiles(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
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

/** Immediate transaction: read-then-write paths take the write lock up front (no SQLITE_BUSY upgrade deadlock). */
export function immediate<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate();
}
