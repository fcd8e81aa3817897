import { createAi } from "../../src/ai/engine.ts";
import { createApp } from "../../src/app.ts";
import { createStripe } from "../../src/billing/stripe-client.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { openDb } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { stopListening } from "../../src/db/pg/client.ts";
import { freshAppDatabaseUrl, onPostgres, TEST_POOL, trackAppDatabase } from "./test-database.ts";
import type { Deps } from "../../src/deps.ts";
import { createTestClock, type TestClock } from "./clock.ts";
import { createMemoryLogger } from "./memory-logger.ts";
import { createMailer } from "../../src/lib/mail/index.ts";
import { createMetrics } from "../../src/system/metrics.ts";
import { TEST_PASSWORD_HASH_ENV } from "./password-cost.ts";

export type TestEnv = Record<string, string | undefined>;

/** The SECRET_KEY of test servers (PostgreSQL requires one): seals council members' keys. */
export const TEST_SECRET_KEY = "clé-de-test-des-clés-du-conseil-32+";

/** A config as an operator would set it, with a test's variables on top. */
export function testConfig(env: TestEnv = {}): Config {
  return loadConfig({
    DATABASE_PATH: ":memory:",
    PUBLIC_URL: "http://localhost:3000",
    LOG_LEVEL: "debug",
    SECRET_KEY: TEST_SECRET_KEY,
    ...TEST_PASSWORD_HASH_ENV,
    ...env,
  });
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** How many PostgreSQL test apps of this process may keep LISTENing (below). */
const LISTENING_APPS_MAX = 20;
// Module state: this process's PostgreSQL test apps that may LISTEN, oldest first.
const listeningApps: object[] = [];

/**
 * A LISTEN (council changes, run stops, run texts, run events) holds a
 * connection of its own that never idles out, and a test process makes
 * hundreds of apps on one cluster (max_connections 300, shared by the suite's
 * parallel processes): past LISTENING_APPS_MAX apps, the oldest stop
 * listening. A test uses the apps it just made; an old one would only fall
 * back to what a server does after a lost notification (its periodic checks).
 */
function retireListeners(db: object): void {
  listeningApps.push(db);
  while (listeningApps.length > LISTENING_APPS_MAX) void stopListening(listeningApps.shift()!);
}

/**
 * A whole app on its own fresh, migrated in-memory database (or, with
 * TEST_DATABASE=postgres, its own fresh PostgreSQL database: test-database.ts),
 * with a test clock and a logger that keeps its lines. `env` sets
 * configuration variables; `deps` replaces any dependency.
 */
export async function createTestApp(opts: { env?: TestEnv; deps?: Partial<Deps> } = {}) {
  if (onPostgres && !opts.deps?.db) {
    // A test may point a second app at the first one's database (two servers).
    const url = opts.env?.DATABASE_URL ?? (await freshAppDatabaseUrl());
    const config = opts.deps?.config ? { ...opts.deps.config, databaseUrl: url, databaseLabel: url } : testConfig({ ...opts.env, DATABASE_URL: url });
    const db = openDatabase(config, undefined, TEST_POOL);
    retireListeners(db);
    trackAppDatabase(url, db);
    return createTestApp({ ...opts, env: { ...opts.env, DATABASE_URL: url }, deps: { ...opts.deps, config, db } });
  }
  const config = opts.deps?.config ?? testConfig(opts.env);
  const db = opts.deps?.db ?? openDb(config.databasePath);
  // The PostgreSQL databases of test-database.ts come migrated.
  if (!onPostgres) await runMigrations(db);
  const clock = (opts.deps?.clock as TestClock | undefined) ?? createTestClock();
  const log = createMemoryLogger();
  // Same factory as the server: the outbox, or SMTP when the test sets SMTP_URL.
  const mailer = opts.deps?.mailer ?? createMailer(config, db, clock, log);
  const deps: Deps = { db, config, clock, log, mailer, stripe: createStripe(config), ai: createAi(config, clock, db), metrics: createMetrics(), ...opts.deps };
  const app = createApp(deps);

  /** A request through the app, JSON in and out, with an optional bearer token. */
  async function call(method: string, path: string, init: { json?: unknown; token?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.json !== undefined) headers["content-type"] = "application/json";
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await app.request(path, {
      method,
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const text = await res.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body };
  }

  return { app, deps, db, clock, log, config, call };
}
