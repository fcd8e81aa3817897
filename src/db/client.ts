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
export function openDb(path: string): Db {
  const memory = path === ":memory:";
  if (!memory) protectFiles(path);
  const sqlite = new Database(path, { create: true, strict: true });
  // busy_timeout first: every later statement may meet another writer (server + CLI).
  sqlite.run("PRAGMA busy_timeout = 5000");
  if (!memory) sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = FULL");
  sqlite.run("PRAGMA foreign_keys = ON");
  checkPragmas(sqlite, memory);
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

export function checkPragmas(sqlite: Database, memory = false): void {
  const expected: Array<[string, unknown]> = [
    ["busy_timeout", 5000],
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
