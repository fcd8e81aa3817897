import { afterEach, setDefaultTimeout } from "bun:test";
import { TEST_PASSWORD_HASH_ENV } from "./password-cost.ts";
import { join } from "node:path";
import { openDb, type Db } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { tempDir } from "./binary.ts";

const root = join(import.meta.dir, "..", "..");

export type CliResult = { code: number; stdout: string; stderr: string; json(): any };

/**
 * The CLI's command line: the executable `npm test` compiled once for all its
 * processes (UNISSON_TEST_BINARY: it starts in about a quarter of the CPU time
 * of the sources, which Bun transpiles at every start, and it is what ships),
 * else the sources (`bun src/main.ts`, much faster than compiling for one file).
 */
function cliCommand(): string[] {
  const binary = process.env.UNISSON_TEST_BINARY;
  return binary ? [binary] : [process.execPath, "src/main.ts"];
}

/**
 * Runs the CLI as a real subprocess on the data folder `dataDir`, with a
 * minimal environment so nothing of the developer's shell leaks in.
 */
export function runCli(args: string[], dataDir: string, env: Record<string, string> = {}, runAs: string[] = []): CliResult {
  const r = Bun.spawnSync([...runAs, ...cliCommand(), "--data-dir", dataDir, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...TEST_PASSWORD_HASH_ENV, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = r.stdout.toString();
  return { code: r.exitCode ?? -1, stdout, stderr: r.stderr.toString(), json: () => JSON.parse(stdout) };
}

/**
 * The same, without blocking the test process: for commands that call a
 * server the test runs itself (the fake Stripe), which must keep answering.
 */
export async function runCliAsync(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<CliResult> {
  const p = Bun.spawn([...cliCommand(), "--data-dir", dataDir, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...TEST_PASSWORD_HASH_ENV, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** The database file of a data folder, as the CLI and the server name it. */
export function dbPath(dataDir: string): string {
  return join(dataDir, "unisson.db");
}

/** Opens the data folder's database (migrated), runs `fn`, closes it: seeding and checking from the test. */
export async function withDb<T>(dataDir: string, fn: (db: Db) => T | Promise<T>): Promise<T> {
  const db = openDb(dbPath(dataDir));
  try {
    await runMigrations(db);
    return await fn(db);
  } finally {
    db.$client.close();
  }
}

/**
 * A fresh data folder per call, holding an up-to-date empty database as the
 * server leaves it (the CLI never creates one, except `users create`), or
 * nothing with `{ empty: true }`; all removed after each test. `setDefaultTimeout`
 * is raised because each CLI run is a real process that loads the whole product
 * (slow on a busy machine, never a timing assertion).
 */
export function useDataDirs(): (opts?: { empty?: boolean }) => Promise<string> {
  setDefaultTimeout(60_000);
  let dirs: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const d of dirs) d.cleanup();
    dirs = [];
  });
  return async (opts = {}) => {
    const dir = tempDir("unisson-cli-");
    dirs.push(dir);
    if (!opts.empty) await withDb(dir.path, () => {});
    return dir.path;
  };
}
