/**
 * CPU time per request without HTTP: the app's own fetch against the bare
 * reference's, in one process, interleaved (the profiling half of
 * per-request.bench.ts, which measures the whole server under wrk):
 *   node_modules/.bin/bun test/bench/in-process.bench.ts > /dev/null
 * Figures go to stderr; stdout takes the request lines (LOG_LEVEL=info, the
 * server's own writer), so redirect it as a real server's log would be.
 * BENCH_N requests per endpoint and round (20,000), BENCH_ROUNDS (5).
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { createApp } from "../../src/app.ts";
import { buildDeps } from "../../src/build-deps.ts";
import { loadConfig } from "../../src/config.ts";
import { closeDb, SERVER_BUSY_TIMEOUT_MS } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { fmt, median, seedUser } from "./bench.lib.ts";

const N = Number(process.env.BENCH_N ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), "unisson-bench-inproc-"));
const config = loadConfig({ DATA_DIR: dir, PUBLIC_URL: "http://localhost:3000", LOG_LEVEL: "info" });
const deps = await buildDeps(config, undefined, SERVER_BUSY_TIMEOUT_MS);
await runMigrations(deps.db);
for (let i = 0; i < 1000; i++) await seedUser(deps.db);
const me = await seedUser(deps.db, { subscriptionType: "pro" });
const app = createApp(deps);

// The reference of test/bench/reference-server.ts, on its own connection to the same file.
const sqlite = new Database(config.databasePath, { strict: true });
const COLUMNS = "id, first_name, last_name, email, subscription_type";
const LIVE = "token_hash = ?1 AND revoked_at IS NULL AND expires_at > ?2";
const userOfSession = sqlite.prepare(`SELECT ${COLUMNS} FROM users WHERE id = (SELECT user_id FROM sessions WHERE ${LIVE})`);
const tokenHash = (header: string | undefined) => {
  const token = header?.match(/^Bearer\s+(\S{16,512})$/i)?.[1];
  return token ? createHash("sha256").update(token).digest("hex") : undefined;
};
const ref = new Hono()
  .get("/hello", (c) => c.text("hello"))
  .get("/me", (c) => {
    const hash = tokenHash(c.req.header("authorization"));
    const row = hash ? userOfSession.get(hash, Date.now()) : null;
    return row ? c.json(row) : c.json({ detail: "401" }, 401);
  });

type Case = { name: string; fetch: (r: Request) => Response | Promise<Response>; url: string; headers: Record<string, string>; us: number[] };
const bearer = { authorization: `Bearer ${me.token}` };
const ONLY = process.env.BENCH_ONLY;
const allCases: Case[] = [
  { name: "reference /hello", fetch: ref.fetch, url: "http://127.0.0.1/hello", headers: {}, us: [] },
  { name: "reference /me", fetch: ref.fetch, url: "http://127.0.0.1/me", headers: bearer, us: [] },
  { name: "app /api/health", fetch: app.fetch, url: "http://127.0.0.1/api/health", headers: {}, us: [] },
  { name: "app /api/auth/me", fetch: app.fetch, url: "http://127.0.0.1/api/auth/me", headers: bearer, us: [] },
];
const cases = ONLY ? allCases.filter((c) => c.name.includes(ONLY)) : allCases;

async function run(c: Case, n: number) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await c.fetch(new Request(c.url, { headers: c.headers }));
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status}`);
    await res.arrayBuffer();
    // A turn of the event loop now and then, as a server under load gets: the log lines go out on it.
    if (i % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
  }
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / n;
}

for (const c of cases) await run(c, 2000);
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < cases.length; i++) {
    const c = cases[(i + round) % cases.length]!;
    c.us.push(await run(c, N));
  }
}
for (const c of cases) console.error(`${c.name.padEnd(20)} ${fmt(median(c.us))} µs  (${c.us.map((x) => fmt(x)).join(", ")})`);
const m = (name: string) => median(allCases.find((c) => c.name === name)!.us);
if (!ONLY)
  console.error(
    `/api/auth/me / ref /me: ${fmt(m("app /api/auth/me") / m("reference /me"), 2)}x; /api/health / ref /hello: ${fmt(m("app /api/health") / m("reference /hello"), 2)}x`,
  );
sqlite.close();
await closeDb(deps.db);
if (process.env.BENCH_KEEP) console.error(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
process.exit(0);
