import { postgresClient, stopListening } from "../../src/db/pg/client.ts";
import { runPgMigrations } from "../../src/db/pg/migrate.ts";
import { adminConnection, pgClient, postgresTestUrl } from "./postgres.ts";

/**
 * Which database the test apps of this process use: SQLite in memory (the
 * default), or PostgreSQL with TEST_DATABASE=postgres (scripts/test.ts runs
 * test/server a second time so). One per process, as the server
 * (docs/DECISIONS.md, "One dialect per process").
 */
export const onPostgres = process.env.TEST_DATABASE === "postgres";

/** Why a test is skipped on PostgreSQL: it checks something only SQLite has. */
export const SQLITE_ONLY = onPostgres;

// Module state: the migrated template every app database of this process is copied from.
let template: Promise<string> | undefined;

function withName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function migratedTemplate(admin: string): Promise<string> {
  const name = `tpl_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminConnection(admin).unsafe(`CREATE DATABASE "${name}"`);
  const client = pgClient(withName(admin, name));
  try {
    await runPgMigrations(client);
  } finally {
    await client.close();
  }
  return name;
}

type AppDatabase = { file: string; name: string; handles: object[] };
// Module state: the app databases of this process not dropped yet, with the test file (Bun.main) that made them.
let appDatabases: AppDatabase[] = [];

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * Records an open handle on an app database, so that it is closed before its
 * database is dropped (a second server of a test opens the same database).
 */
export function trackAppDatabase(url: string, handle: object): void {
  appDatabases.find((d) => d.name === databaseName(url))?.handles.push(handle);
}

/**
 * Drops the app databases of the test files that have ended. `bun test` runs
 * a process's files one after the other and sets Bun.main to the file
 * running, so a database made under another file is no longer used: its
 * LISTEN connection is ended, then the database is dropped (WITH FORCE ends
 * what its pool still holds). Without this, the pass keeps over 1,000
 * databases of about 9 MB each until the end (docs/TESTING.md).
 */
async function dropEndedFiles(admin: string): Promise<void> {
  const ended = appDatabases.filter((d) => d.file !== Bun.main);
  if (ended.length === 0) return;
  appDatabases = appDatabases.filter((d) => d.file === Bun.main);
  await Promise.allSettled(ended.flatMap((d) => d.handles.map((h) => stopListening(h))));
  for (const d of ended) await adminConnection(admin).unsafe(`DROP DATABASE IF EXISTS "${d.name}" WITH (FORCE)`);
  for (const d of ended) for (const h of d.handles) void postgresClient(h)?.close({ timeout: 0 });
}

/**
 * A new PostgreSQL database for one test app, already migrated (a copy of
 * this process's template: CREATE DATABASE ... TEMPLATE is much faster than
 * migrating each), by copying its files (STRATEGY FILE_COPY, PostgreSQL 15
 * and later: 9-10 ms of the server's CPU against 15-20 for the default,
 * which writes the copy through the WAL; docs/TESTING.md). Dropped once a
 * later test file of the process asks for one (above); the rest go with the
 * throwaway cluster at the end.
 */
export async function freshAppDatabaseUrl(): Promise<string> {
  const admin = postgresTestUrl();
  if (!admin) throw new Error("TEST_DATABASE=postgres sans PostgreSQL de test (TEST_POSTGRES_URL, initdb)");
  await dropEndedFiles(admin);
  template ??= migratedTemplate(admin);
  const tpl = await template;
  const name = `app_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminConnection(admin).unsafe(`CREATE DATABASE "${name}" TEMPLATE "${tpl}" STRATEGY FILE_COPY`);
  appDatabases.push({ file: Bun.main, name, handles: [] });
  return withName(admin, name);
}

/**
 * Small pools that let go of idle connections: a test file makes many apps,
 * the cluster allows 300 connections. Two, not four: Bun's client opens the
 * whole pool at the first query, and each connection costs the server
 * several milliseconds of CPU (docs/TESTING.md); a transaction and a read
 * beside it still each have one. One is too few (tests hang: TESTING.md).
 */
export const TEST_POOL = { max: 2, idleTimeout: 2 };
