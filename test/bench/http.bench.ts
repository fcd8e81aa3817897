/**
 * API throughput and latency: `bun test/bench/http.bench.ts` (part of `npm run bench`).
 *
 * wrk on 127.0.0.1 (2 threads, 64 connections, BENCH_SECONDS each, after a
 * short warm-up) against the compiled executable on a database on disk, then
 * against the minimal reference (bare Hono + one bun:sqlite lookup) on the
 * same database, in the same run. Prints a Markdown table with the ratio of
 * each endpoint's requests/s to the reference's. Not a test: the numbers
 * depend on the machine.
 */
import { join } from "node:path";
import { tempDir } from "../helpers/binary.ts";
import { fmt, requireWrk, seedConversations, seedUser, startReference, startServer, withDataDb, wrk, type WrkResult } from "./bench.lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
requireWrk();

const dir = tempDir("unisson-bench-http-");
const { plain, heavy } = withDataDb(dir.path, (db) => {
  // A realistic table: a thousand other users and sessions around ours.
  for (let i = 0; i < 1000; i++) seedUser(db);
  const plain = seedUser(db, { subscriptionType: "pro" });
  const heavy = seedUser(db, { subscriptionType: "pro" });
  seedConversations(db, heavy.userId, 200, new Date());
  return { plain, heavy };
});

async function measure(url: string, headers: Record<string, string> = {}): Promise<WrkResult> {
  await wrk(url, { connections: CONNECTIONS, seconds: 2, headers });
  const r = await wrk(url, { connections: CONNECTIONS, seconds: SECONDS, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} socket errors`);
  return r;
}

const rows: Array<[string, WrkResult]> = [];
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

const ref = await startReference(join(dir.path, "unisson.db"));
rows.push(["reference: bare Hono + 1 SQLite lookup", await measure(`${ref.url}/me`, bearer(plain.token))]);
await ref.stop();

// The executable as an operator runs it: LOG_LEVEL=info, one log line per request.
const server = await startServer(dir.path, { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info" });
try {
  rows.push(["GET /api/auth/me", await measure(`${server.url}/api/auth/me`, bearer(plain.token))]);
  rows.push(["GET /api/unisson/history (200 conversations)", await measure(`${server.url}/api/unisson/history`, bearer(heavy.token))]);
  rows.push(["GET /api/unisson/status", await measure(`${server.url}/api/unisson/status`)]);
  rows.push(["GET / (SPA page)", await measure(`${server.url}/`)]);
} finally {
  await server.stop();
  dir.cleanup();
}

const refRps = rows[0]![1].rps;
console.log(`\nHTTP, wrk -t2 -c${CONNECTIONS} -d${SECONDS}s on 127.0.0.1, ${navigator.hardwareConcurrency} cores\n`);
console.log("| endpoint | requests/s | p50 | p99 | vs. reference |");
console.log("|---|---|---|---|---|");
for (const [name, r] of rows) console.log(`| ${name} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} ms | ${fmt(r.p99, 2)} ms | ${fmt((100 * r.rps) / refRps, 0)} % |`);
const me = rows[1]![1];
const ok = me.rps >= 0.6 * refRps && me.p99 < 10;
console.log(`\n/api/auth/me: ${fmt((100 * me.rps) / refRps, 0)} % of the reference (aim >= 60 %), p99 ${fmt(me.p99, 2)} ms (aim < 10 ms): ${ok ? "aim met" : "AIM MISSED"}`);
