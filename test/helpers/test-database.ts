import { SQL } from "bun";
import { runPgMigrations } from "../../src/db/pg/migrate.ts";
import { postgresTestUrl } from "./postgres.ts";

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
  const sql = new SQL(admin);
  try {
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.close();
  }
  const client = new SQL(withName(admin, name));
  try {
    await runPgMigrations(client);
  } finally {
    await client.close();
  }
  return name;
}

/**
 * A new PostgreSQL database for one test app, already migrated (a copy of
 * this process's template: CREATE DATABASE ... TEMPLATE is much faster than
 * migrating each). Left to the throwaway cluster, which is deleted at the end.
 */
export async function freshAppDatabaseUrl(): Promise<string> {
  const admin = postgresTestUrl();
  if (!admin) throw new Error("TEST_DATABASE=postgres sans PostgreSQL de test (TEST_POSTGRES_URL, initdb)");
  template ??= migratedTemplate(admin);
  const tpl = await template;
  const name = `app_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const sql = new SQL(admin);
  try {
    await sql.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${tpl}"`);
  } finally {
    await sql.close();
  }
  return withName(admin, name);
}

/** Small pools that let go of idle connections: a test file makes many apps, the cluster allows 300 connections. */
export const TEST_POOL = { max: 4, idleTimeout: 2 };
