import { describe, expect, test } from "bun:test";
import { AUTH_LIMITS } from "../../../src/auth/limits.ts";
import { loadConfig } from "../../../src/config.ts";
import { closeDb, openDb } from "../../../src/db/client.ts";
import { createTestApp, type TestEnv } from "../../helpers/app.ts";
import { dbPath, useDataDirs } from "../../helpers/cli.ts";
import type { TestClock } from "../../helpers/clock.ts";
import { onPostgres } from "../../helpers/test-database.ts";

const dataDir = useDataDirs();

/** Apps ("processes") on one shared database: a SQLite file, or one PostgreSQL database (the first app's). */
async function sharedDatabase() {
  // No data folder on PostgreSQL: making one opens a SQLite database, and a process has one dialect.
  const file = onPostgres ? "" : dbPath(await dataDir());
  let url: string | undefined;
  return async (clock?: TestClock) => {
    if (!onPostgres) return await createTestApp({ deps: { db: openDb(file), ...(clock ? { clock } : {}) } });
    const t = await createTestApp({ env: url ? { DATABASE_URL: url } : {}, deps: clock ? { clock } : {} });
    url ??= t.config.databaseUrl;
    return t;
  };
}

/** The app behind a real loopback connection, so the TCP peer is 127.0.0.1. */
async function overLoopback(env: TestEnv, fn: (post: (xff?: string) => Promise<number>) => Promise<void>) {
  const { app } = await createTestApp({ env });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
  try {
    await fn(async (xff) => {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(xff ? { "x-forwarded-for": xff } : {}) },
        body: JSON.stringify({ email: "x@example.fr" }),
      });
      return res.status;
    });
  } finally {
    server.stop(true);
  }
}

describe("rate limits that survive and see the right client", () => {
  test("counters survive a restart: a new process on the same database still refuses", async () => {
    const open = await sharedDatabase();
    const first = await open();
    const forgot = (t: typeof first) => t.call("POST", "/api/auth/forgot-password", { json: { email: "target@example.fr" } });
    for (let i = 0; i < AUTH_LIMITS.forgotPassword.account.limit; i++) expect((await forgot(first)).status).toBe(200);
    await closeDb(first.db);
    const restarted = await open(first.clock);
    const res = await forgot(restarted);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("two processes on one database share the counters", async () => {
    const open = await sharedDatabase();
    const a = await open();
    const b = await open(a.clock);
    const limit = AUTH_LIMITS.forgotPassword.account.limit;
    for (let i = 0; i < limit; i++) await (i % 2 ? a : b).call("POST", "/api/auth/forgot-password", { json: { email: "t@example.fr" } });
    expect((await a.call("POST", "/api/auth/forgot-password", { json: { email: "t@example.fr" } })).status).toBe(429);
  });

  test("behind a trusted proxy chain, each client has its own bucket", async () => {
    await overLoopback({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" }, async (post) => {
      // The client, then a second proxy (10.0.0.5) in front of the loopback one: neither proxy is the client.
      for (let i = 0; i < AUTH_LIMITS.login.ip.limit; i++) await post("203.0.113.9, 10.0.0.5");
      expect(await post("203.0.113.9, 10.0.0.5")).toBe(429);
      expect(await post("203.0.113.10, 10.0.0.5")).toBe(400);
    });
  });

  test("behind an untrusted proxy, X-Forwarded-For is ignored: every client shares its address's bucket", async () => {
    await overLoopback({ TRUSTED_PROXIES: "192.0.2.1" }, async (post) => {
      for (let i = 0; i < AUTH_LIMITS.login.ip.limit; i++) await post(`203.0.113.${i}`);
      expect(await post("198.51.100.77")).toBe(429);
    });
  });

  test("TRUSTED_PROXIES defaults to loopback and refuses anything but addresses and CIDRs", () => {
    expect(loadConfig({}).trustedProxies).toEqual(["127.0.0.1/8", "::1"]);
    expect(loadConfig({ TRUSTED_PROXIES: "" }).trustedProxies).toEqual([]);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(
      'Configuration invalide : TRUSTED_PROXIES="10.0.0.0/33" doit être une liste d\'adresses IP ou de CIDR séparés par des virgules',
    );
    expect(() => loadConfig({ TRUSTED_PROXIES: "proxy.local" })).toThrow("TRUSTED_PROXIES");
  });
});
