/**
 * SQLite against PostgreSQL with one and two servers, in one run:
 * `bun test/bench/scaling.bench.ts` (part of `npm run bench`). Written for
 * issue 21; not a test: the numbers depend on the machine.
 *
 * Three setups run side by side, all started before the first measurement:
 * the compiled executable on SQLite; on a throwaway PostgreSQL cluster
 * (test/helpers/postgres.ts: a temporary folder, loopback, fsync off) with
 * one server; and two servers on one database of that cluster. Each setup is
 * measured, in BENCH_ROUNDS interleaved rounds of BENCH_SECONDS (after a 2 s
 * warm-up), on
 * - `GET /api/auth/me` under wrk (BENCH_CONNECTIONS connections, split over
 *   the servers: one wrk per server at once; p99 is the worse of the two);
 * - a full chat-and-answer (POST /api/unisson/chat, then /process) by
 *   BENCH_CHAT_WORKERS users asking one question after another, spread over
 *   the servers, the fake providers (their own process) answering in 5 ms so
 *   the server's own cost shows.
 * Prints medians: requests (answers) a second, p99, the servers' CPU per
 * request (answer) and, on PostgreSQL, the postgres processes' CPU beside it
 * (from /proc: utime + stime).
 */
import { SQL } from "bun";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { Db } from "../../src/db/client.ts";
import { ensureBinary, tempDir } from "../helpers/binary.ts";
import { type PostgresCluster, startPostgresCluster } from "../helpers/postgres.ts";
import { cpuMicros, fmt, median, requireWrk, type Running, seedUser, spawnFakeProviders, startServer, UNMETERED, withDataDb, wrk } from "./bench.lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const CHAT_WORKERS = Number(process.env.BENCH_CHAT_WORKERS ?? 16);
const MODELS = ["claudeHaiku", "gpt4", "geminiPro", "mistralLarge", "sonarPro", "claudeOpus"];
requireWrk();
const LOAD_BEFORE = loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");

type Users = { me: string; chatters: string[] };

/** A thousand other users and sessions around ours, and one pro user per chat worker. */
async function seed(db: Db): Promise<Users> {
  for (let i = 0; i < 1000; i++) await seedUser(db);
  const me = (await seedUser(db, { subscriptionType: "pro" })).token;
  const chatters: string[] = [];
  for (let i = 0; i < CHAT_WORKERS; i++) chatters.push((await seedUser(db, { subscriptionType: "pro", planQueries: 1_000_000 })).token);
  return { me, chatters };
}

/** The postmaster and its children: CPU so far in µs (test/helpers/postgres.ts). */
const postgresCpuMicros = (cluster: PostgresCluster): number => (cluster.cpuSeconds() ?? 0) * 1e6;

type Measured = { rate: number; p99: number; requests: number; failed: number };
type Cell = { rate: number; p99: number; serverCpuUs: number; pgCpuUs: number; failed: number };
type Setup = { name: string; servers: Running[]; users: Users; pgCpu?: () => number; me: Cell[]; chat: Cell[] };

const serversCpu = (s: Setup) => s.servers.reduce((sum, r) => sum + cpuMicros(r.pid), 0);

/** wrk on /api/auth/me of every server of the setup at once, the connections split between them. */
async function measureMe(s: Setup, seconds: number): Promise<Measured> {
  const headers = { authorization: `Bearer ${s.users.me}` };
  const per = Math.floor(CONNECTIONS / s.servers.length);
  const results = await Promise.all(
    s.servers.map((r) => wrk(`${r.url}/api/auth/me`, { connections: per, seconds, threads: s.servers.length === 1 ? 2 : 1, headers })),
  );
  for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error(`${s.name}: ${r.non2xx} non-2xx answers, ${r.errors} socket errors`);
  return {
    rate: results.reduce((a, r) => a + r.rps, 0),
    p99: Math.max(...results.map((r) => r.p99)),
    requests: results.reduce((a, r) => a + r.requests, 0),
    failed: 0,
  };
}

/**
 * Chat workers, each a user asking one question after another on its server,
 * for `seconds`. An answer refused with a 5xx (the database gave up a
 * transaction) is counted, not thrown: the figures say how often it happens.
 */
async function measureChat(s: Setup, seconds: number): Promise<Measured> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const post = async (url: string, token: string, body: unknown) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200 && res.status < 500) throw new Error(`${s.name}: ${url} answered ${res.status} ${JSON.stringify(json)}`);
    return res.status === 200 ? json : undefined;
  };
  await Promise.all(
    s.users.chatters.map(async (token, i) => {
      const base = `${s.servers[i % s.servers.length]!.url}/api/unisson`;
      for (let n = 0; performance.now() < deadline; n++) {
        const t0 = performance.now();
        const chat = await post(`${base}/chat`, token, { message: `Question de mesure ${i}-${n} : quelle est la capitale de la France ?` });
        if (chat && !chat.requires_final_processing) throw new Error(`${s.name}: expected final processing: ${JSON.stringify(chat)}`);
        const done = chat && (await post(`${base}/process`, token, { conversation_id: chat.conversation_id }));
        if (done) latencies.push(performance.now() - t0);
        else failed++;
      }
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rate: (latencies.length * 1000) / (performance.now() - started),
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
    requests: latencies.length,
    failed,
  };
}

/** A 2 s warm-up, then one measured run with the CPU the servers (and PostgreSQL) used per request. */
async function cell(s: Setup, run: typeof measureMe): Promise<Cell> {
  await run(s, 2);
  const server0 = serversCpu(s);
  const pg0 = s.pgCpu?.() ?? 0;
  const r = await run(s, SECONDS);
  return { rate: r.rate, p99: r.p99, failed: r.failed, serverCpuUs: (serversCpu(s) - server0) / r.requests, pgCpuUs: ((s.pgCpu?.() ?? 0) - pg0) / r.requests };
}

/** The distinct errors the servers logged (why an answer was refused), counted. */
function printLoggedErrors(dirs: string[]): void {
  const counts = new Map<string, number>();
  for (const dir of dirs)
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".err")))
      for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
        const m = line.match(/ERROR +(.*?) run=\d+ error="(.{0,80})/);
        const key = m && `${name.replace(/-\d+\.log\.err$/, "")}: ${m[1]}: ${m[2]}`;
        if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
  for (const [error, n] of counts) console.log(`logged ${n}x ${error}`);
}

const scripts = Object.fromEntries(MODELS.map((m) => [m, { latencyMs: 5, synthesisLatencyMs: 5 }]));
const fakes = await spawnFakeProviders(scripts);
const serverEnv = { ...fakes.env, ...UNMETERED, LOG_LEVEL: "info", AI_TIMEOUT_MS: "10000" };
const seedDir = tempDir("unisson-bench-scaling-seed-");
const sqliteDir = tempDir("unisson-bench-scaling-");
const pgDir = tempDir("unisson-bench-scaling-pg-");
const setups: Setup[] = [];
let cluster: PostgresCluster | undefined;
try {
  // One seeded database, copied for each setup: the same users and tokens everywhere.
  const seeded = await withDataDb(seedDir.path, seed);
  copyFileSync(join(seedDir.path, "unisson.db"), join(sqliteDir.path, "unisson.db"));
  setups.push({ name: "SQLite, one server", servers: [await startServer(sqliteDir.path, serverEnv)], users: seeded, me: [], chat: [] });

  cluster = startPostgresCluster();
  const pgCluster = cluster;
  const admin = new SQL(cluster.url);
  await admin.unsafe('CREATE DATABASE "one"');
  await admin.unsafe('CREATE DATABASE "two"');
  await admin.close();
  for (const [name, db, count] of [
    ["PostgreSQL, one server", "one", 1],
    ["PostgreSQL, two servers", "two", 2],
  ] as const) {
    const url = cluster.url.replace(/\/postgres$/, `/${db}`);
    // One process opens one kind of database: the seeded SQLite file goes over with the CLI, as an operator moves.
    const copy = Bun.spawnSync([ensureBinary(), "db", "copy", "--to", url], { env: { PATH: process.env.PATH ?? "", DATA_DIR: seedDir.path } });
    if (copy.exitCode !== 0) throw new Error(`db copy: ${copy.stderr.toString()}`);
    const servers: Running[] = [];
    const setup: Setup = { name, servers, users: seeded, pgCpu: () => postgresCpuMicros(pgCluster), me: [], chat: [] };
    setups.push(setup);
    for (let i = 0; i < count; i++) servers.push(await startServer(pgDir.path, { ...serverEnv, DATABASE_URL: url }, join(pgDir.path, `${db}-${i}.log`)));
  }

  // Rounds, every setup once per round, so a busy moment of the shared box weighs on all of them alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of setups) {
      s.me.push(await cell(s, measureMe));
      s.chat.push(await cell(s, measureChat));
    }
  }
} finally {
  for (const s of setups) for (const r of s.servers) await r.stop();
  printLoggedErrors([sqliteDir.path, pgDir.path]);
  cluster?.stop();
  fakes.proc.kill("SIGTERM");
  await fakes.proc.exited;
  seedDir.cleanup();
  sqliteDir.cleanup();
  pgDir.cleanup();
}

const med = (cells: Cell[], key: keyof Cell) => median(cells.map((c) => c[key]));
console.log(
  `\nwrk -c${CONNECTIONS} on GET /api/auth/me; ${CHAT_WORKERS} users asking one question after another (chat + process, models answering in 5 ms); ${ROUNDS} interleaved rounds of ${SECONDS} s on 127.0.0.1, ${navigator.hardwareConcurrency} cores, load average before ${LOAD_BEFORE}; medians\n`,
);
console.log(
  "| setup | /api/auth/me: req/s | p99 | server CPU per request | postgres CPU per request | chat + answer: answers/s | p99 | server CPU per answer | postgres CPU per answer | answers refused (5xx) per round |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const s of setups) {
  const pg = (cells: Cell[], digits: number) => (s.pgCpu ? `${fmt(med(cells, "pgCpuUs"), digits)} µs` : "—");
  console.log(
    `| ${s.name} | ${fmt(med(s.me, "rate"), 0)} | ${fmt(med(s.me, "p99"), 2)} ms | ${fmt(med(s.me, "serverCpuUs"), 0)} µs | ${pg(s.me, 0)} | ${fmt(med(s.chat, "rate"), 1)} | ${fmt(med(s.chat, "p99"), 1)} ms | ${fmt(med(s.chat, "serverCpuUs") / 1000, 2)} ms | ${s.pgCpu ? `${fmt(med(s.chat, "pgCpuUs") / 1000, 2)} ms` : "—"} | ${s.chat.map((c) => c.failed).join(", ")} |`,
  );
}
console.log(`\nper round (/api/auth/me req/s; answers/s):`);
for (const s of setups) console.log(`${s.name}: ${s.me.map((c) => fmt(c.rate, 0)).join(", ")}; ${s.chat.map((c) => fmt(c.rate, 1)).join(", ")}`);
