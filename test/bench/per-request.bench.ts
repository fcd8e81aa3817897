/**
 * Server CPU time per request, this tree's executable against the minimal
 * reference (test/bench/reference-server.ts) in the same run, and against
 * other builds when BENCH_BASELINE names them (`label=path`, comma-separated;
 * a bare path is labelled "baseline"):
 *   node_modules/.bin/bun test/bench/per-request.bench.ts
 *   BENCH_BASELINE=before=/tmp/unisson-before node_modules/.bin/bun test/bench/per-request.bench.ts
 *
 * Requests/s on a shared 2-core box say more about the neighbours than about
 * the server; the CPU time the server process spends (from /proc, user +
 * system) divided by the requests a separate load process (wrk) completed
 * moves much less. Each endpoint is measured once per round, the rounds
 * interleave the servers (a busy moment weighs on all alike), medians.
 * Aims (issue 36): /api/auth/me at most 1.6x the reference's /me (which reads
 * the session and its user in one statement, as the product does), /api/health
 * at most 1.8x the reference's bare /hello; the ratio to the two-read /me is
 * printed beside. Not a test: figures depend on the machine.
 */
import { copyFileSync, existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { tempDir } from "../helpers/binary.ts";
import {
  cpuMicros,
  fmt,
  forgetNewerMigrations,
  median,
  migrationsOf,
  requireWrk,
  type Running,
  seedUser,
  startReference,
  startServer,
  withDataDb,
  wrk,
} from "./bench.lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASELINES = (process.env.BENCH_BASELINE ?? "")
  .split(",")
  .filter(Boolean)
  .map((spec) => (spec.includes("=") ? (spec.split("=", 2) as [string, string]) : (["baseline", spec] as [string, string])));
for (const [, path] of BASELINES) if (!existsSync(path)) throw new Error(`BENCH_BASELINE: ${path} not found`);
requireWrk();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const LOAD_BEFORE = load();

const ours = tempDir("unisson-bench-cpu-");
const me = await withDataDb(ours.path, async (db) => {
  // A realistic table: a thousand other users and sessions around ours.
  for (let i = 0; i < 1000; i++) await seedUser(db);
  return seedUser(db, { subscriptionType: "pro" });
});
const bearer = { authorization: `Bearer ${me.token}` };

type Row = { name: string; url: string; headers: Record<string, string>; server: Running; cpuUs: number[]; rps: number[] };
const servers: Running[] = [];
const rows: Row[] = [];
const row = (name: string, server: Running, path: string, headers: Record<string, string> = {}) =>
  rows.push({ name, url: `${server.url}${path}`, headers, server, cpuUs: [], rps: [] });

const baseDirs: Array<ReturnType<typeof tempDir>> = [];
try {
  const ref = await startReference(join(ours.path, "unisson.db"));
  servers.push(ref);
  row("reference GET /hello (bare Hono)", ref, "/hello");
  row("reference GET /me (bearer, SHA-256, session and user in one read)", ref, "/me", bearer);
  row("reference GET /me-two-reads (the same in two reads)", ref, "/me-two-reads", bearer);
  // The executable as an operator runs it: LOG_LEVEL=info, one log line per request (probes at debug).
  const tree = await startServer(ours.path, { LOG_LEVEL: "info" });
  servers.push(tree);
  row("this tree GET /api/health", tree, "/api/health");
  row("this tree GET /api/auth/me", tree, "/api/auth/me", bearer);
  for (const [label, binary] of BASELINES) {
    const dir = tempDir("unisson-bench-cpu-base-");
    baseDirs.push(dir);
    copyFileSync(join(ours.path, "unisson.db"), join(dir.path, "unisson.db"));
    forgetNewerMigrations(join(dir.path, "unisson.db"), migrationsOf(binary));
    const base = await startServer(dir.path, { LOG_LEVEL: "info" }, join(dir.path, "server.log"), binary);
    servers.push(base);
    row(`${label} GET /api/health`, base, "/api/health");
    row(`${label} GET /api/auth/me`, base, "/api/auth/me", bearer);
  }
  for (let round = 0; round < ROUNDS; round++) {
    // The order turns every round, so no endpoint always follows the same neighbour.
    const order = rows.map((_, i) => rows[(i + round) % rows.length]!);
    for (const r of order) {
      await wrk(r.url, { connections: CONNECTIONS, seconds: 1, headers: r.headers });
      const cpu0 = cpuMicros(r.server.pid);
      const res = await wrk(r.url, { connections: CONNECTIONS, seconds: SECONDS, headers: r.headers });
      const cpu = cpuMicros(r.server.pid) - cpu0;
      if (res.non2xx > 0 || res.errors > 0) throw new Error(`${r.url}: ${res.non2xx} non-2xx answers, ${res.errors} socket errors`);
      r.cpuUs.push(cpu / res.requests);
      r.rps.push(res.rps);
    }
  }
} finally {
  for (const s of servers) await s.stop();
  ours.cleanup();
  for (const dir of baseDirs) dir.cleanup();
}

const cpu = (name: string) => median(rows.find((r) => r.name.startsWith(name))!.cpuUs);
console.log(
  `\nServer CPU per request: wrk -t2 -c${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s (1 s warm-up) on 127.0.0.1, ${navigator.hardwareConcurrency} cores, load average ${LOAD_BEFORE} before, ${load()} after; medians\n`,
);
console.log("| server and endpoint | CPU per request | per round | requests/s |");
console.log("|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.name} | ${fmt(median(r.cpuUs))} µs | ${r.cpuUs.map((x) => fmt(x)).join(", ")} | ${fmt(median(r.rps), 0)} |`);
}
const hello = cpu("reference GET /hello");
const refMe = cpu("reference GET /me ");
const refMeTwo = cpu("reference GET /me-two-reads");
const aims: Array<[string, number, number]> = [
  ["this tree /api/auth/me / reference /me", cpu("this tree GET /api/auth/me") / refMe, 1.6],
  ["this tree /api/health / reference /hello", cpu("this tree GET /api/health") / hello, 1.8],
  ["this tree /api/auth/me / reference /me-two-reads", cpu("this tree GET /api/auth/me") / refMeTwo, Number.NaN],
];
for (const [label] of BASELINES) {
  aims.push([`${label} /api/auth/me / reference /me`, cpu(`${label} GET /api/auth/me`) / refMe, Number.NaN]);
  aims.push([`${label} /api/health / reference /hello`, cpu(`${label} GET /api/health`) / hello, Number.NaN]);
}
console.log("");
for (const [name, ratio, aim] of aims) {
  console.log(`${name}: ${fmt(ratio, 2)}x${Number.isNaN(aim) ? "" : ` (aim <= ${aim}x: ${ratio <= aim ? "met" : "MISSED"})`}`);
}
