/**
 * API throughput and latency: `bun test/bench/http.bench.ts` (part of `npm run bench`).
 *
 * wrk on 127.0.0.1 (2 threads, 64 connections, BENCH_SECONDS each, after a
 * short warm-up) against the compiled executable on a database on disk and
 * against the minimal reference (bare Hono + one bun:sqlite lookup) on the
 * same database, in BENCH_ROUNDS interleaved rounds. Prints a Markdown table
 * of medians: requests/s, latency, the server's CPU time per request (from
 * /proc, steadier than requests/s on a shared box) and both ratios to the
 * reference. Not a test: the numbers depend on the machine.
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { tempDir } from "../helpers/binary.ts";
import { cpuMicros, fmt, median, requireWrk, seedConversations, seedUser, startReference, startServer, withDataDb, wrk, type WrkResult } from "./bench.lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD_BEFORE = loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");
requireWrk();

const dir = tempDir("unisson-bench-http-");
const { plain, heavy } = await withDataDb(dir.path, async (db) => {
  // A realistic table: a thousand other users and sessions around ours.
  for (let i = 0; i < 1000; i++) await seedUser(db);
  const plain = await seedUser(db, { subscriptionType: "pro" });
  const heavy = await seedUser(db, { subscriptionType: "pro" });
  seedConversations(db, heavy.userId, 200, new Date());
  return { plain, heavy };
});

type Row = { name: string; url: string; headers: Record<string, string>; pid: () => number; runs: Array<WrkResult & { cpuUs: number }> };

/** One wrk run after a 2-second warm-up, with the server's CPU time per request. */
async function measure(row: Row): Promise<void> {
  await wrk(row.url, { connections: CONNECTIONS, seconds: 2, headers: row.headers });
  const cpu0 = cpuMicros(row.pid());
  const r = await wrk(row.url, { connections: CONNECTIONS, seconds: SECONDS, headers: row.headers });
  const cpuUs = (cpuMicros(row.pid()) - cpu0) / r.requests;
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${row.url}: ${r.non2xx} non-2xx answers, ${r.errors} socket errors`);
  row.runs.push({ ...r, cpuUs });
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const ref = await startReference(join(dir.path, "unisson.db"));
// The executable as an operator runs it: LOG_LEVEL=info, one log line per request.
const server = await startServer(dir.path, { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info" });
const rows: Row[] = [
  { name: "reference: bare Hono + 1 SQLite lookup", url: `${ref.url}/me`, headers: bearer(plain.token), pid: () => ref.pid, runs: [] },
  { name: "GET /api/auth/me", url: `${server.url}/api/auth/me`, headers: bearer(plain.token), pid: () => server.pid, runs: [] },
  {
    name: "GET /api/unisson/history (first page: 50 of 200 conversations)",
    url: `${server.url}/api/unisson/history`,
    headers: bearer(heavy.token),
    pid: () => server.pid,
    runs: [],
  },
  { name: "GET /api/unisson/status", url: `${server.url}/api/unisson/status`, headers: {}, pid: () => server.pid, runs: [] },
  { name: "GET / (SPA page)", url: `${server.url}/`, headers: {}, pid: () => server.pid, runs: [] },
];
try {
  // Rounds, each endpoint once per round, so a busy moment of the box weighs on all of them alike.
  for (let round = 0; round < ROUNDS; round++) for (const row of rows) await measure(row);
} finally {
  await ref.stop();
  await server.stop();
  dir.cleanup();
}

const med = (row: Row, key: "rps" | "p50" | "p99" | "cpuUs") => median(row.runs.map((r) => r[key]));
const refRps = med(rows[0]!, "rps");
const refCpu = med(rows[0]!, "cpuUs");
console.log(
  `\nHTTP, wrk -t2 -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s on 127.0.0.1, ${navigator.hardwareConcurrency} cores, load average before ${LOAD_BEFORE}; medians over the rounds\n`,
);
console.log("| endpoint | requests/s | p50 | p99 | server CPU per request | vs. reference (req/s) | vs. reference (CPU) |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) {
  const rps = med(row, "rps");
  const cpu = med(row, "cpuUs");
  console.log(
    `| ${row.name} | ${fmt(rps, 0)} | ${fmt(med(row, "p50"), 2)} ms | ${fmt(med(row, "p99"), 2)} ms | ${fmt(cpu, 0)} µs | ${fmt((100 * rps) / refRps, 0)} % | ${fmt((100 * refCpu) / cpu, 0)} % |`,
  );
}
const me = rows[1]!;
const ratio = med(me, "rps") / refRps;
const ok = ratio >= 0.6 && med(me, "p99") < 10;
console.log(
  `\n/api/auth/me: ${fmt(100 * ratio, 0)} % of the reference's requests/s (aim >= 60 %), p99 ${fmt(med(me, "p99"), 2)} ms (aim < 10 ms): ${ok ? "aim met" : "AIM MISSED"}`,
);
