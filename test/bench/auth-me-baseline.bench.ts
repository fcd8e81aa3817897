/**
 * `/api/auth/me` of this tree's executable against another build of it, in
 * the same run: `BENCH_BASELINE=/path/to/other/unisson bun test/bench/auth-me-baseline.bench.ts`
 * (build the other one with `bun scripts/build-binary.ts <file>` in its own
 * checkout). Both serve copies of one database on disk (a thousand users
 * and sessions around ours); wrk (2 threads, 64 connections) measures them
 * in BENCH_ROUNDS interleaved rounds of BENCH_SECONDS each, so a busy moment
 * of the box weighs on both alike. Prints requests/s, p50, p99 and server CPU
 * per request (from /proc), medians, and this tree's figures as a share of
 * the baseline's. Written for issue 21 (the asynchronous data layer must keep
 * `/api/auth/me` within 5 %); not a test: the numbers depend on the machine.
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
  startServer,
  withDataDb,
  wrk,
  type WrkResult,
} from "./bench.lib.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASELINE = process.env.BENCH_BASELINE;
if (!BASELINE || !existsSync(BASELINE)) {
  console.error("BENCH_BASELINE=<path of the other executable> is required");
  process.exit(2);
}
requireWrk();
const LOAD_BEFORE = loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");

const ours = tempDir("unisson-bench-me-");
const theirs = tempDir("unisson-bench-me-base-");
const me = await withDataDb(ours.path, async (db) => {
  for (let i = 0; i < 1000; i++) await seedUser(db);
  return seedUser(db, { subscriptionType: "pro" });
});
copyFileSync(join(ours.path, "unisson.db"), join(theirs.path, "unisson.db"));
forgetNewerMigrations(join(theirs.path, "unisson.db"), migrationsOf(BASELINE));

/** The baseline executable, started the way startServer starts ours. */
async function startBaseline(dataDir: string): Promise<Running> {
  try {
    return await startServer(dataDir, { LOG_LEVEL: "info" }, join(dataDir, "server.log"), BASELINE!);
  } catch (e) {
    console.error(await Bun.file(join(dataDir, "server.log.err")).text());
    throw e;
  }
}

type Row = { name: string; server: Running; runs: Array<WrkResult & { cpuUs: number }> };
const headers = { authorization: `Bearer ${me.token}` };
const rows: Row[] = [
  { name: "baseline", server: await startBaseline(theirs.path), runs: [] },
  { name: "this tree", server: await startServer(ours.path, { LOG_LEVEL: "info" }), runs: [] },
];
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which one goes first, so neither always follows the other's load.
    for (const row of round % 2 ? [...rows].reverse() : rows) {
      const url = `${row.server.url}/api/auth/me`;
      await wrk(url, { connections: CONNECTIONS, seconds: 2, headers });
      const cpu0 = cpuMicros(row.server.pid);
      const r = await wrk(url, { connections: CONNECTIONS, seconds: SECONDS, headers });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${row.name}: ${r.non2xx} non-2xx answers, ${r.errors} socket errors`);
      row.runs.push({ ...r, cpuUs: (cpuMicros(row.server.pid) - cpu0) / r.requests });
    }
  }
} finally {
  for (const row of rows) await row.server.stop();
  ours.cleanup();
  theirs.cleanup();
}

const med = (row: Row, key: "rps" | "p50" | "p99" | "cpuUs") => median(row.runs.map((r) => r[key]));
console.log(
  `\nGET /api/auth/me, wrk -t2 -c${CONNECTIONS}, ${ROUNDS} interleaved rounds of ${SECONDS} s on 127.0.0.1, ${navigator.hardwareConcurrency} cores, load average before ${LOAD_BEFORE}; medians\n`,
);
console.log("| executable | requests/s | p50 | p99 | server CPU per request | requests/s per round |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) {
  console.log(
    `| ${row.name} | ${fmt(med(row, "rps"), 0)} | ${fmt(med(row, "p50"), 2)} ms | ${fmt(med(row, "p99"), 2)} ms | ${fmt(med(row, "cpuUs"), 0)} µs | ${row.runs.map((r) => fmt(r.rps, 0)).join(", ")} |`,
  );
}
const [base, ourRow] = rows as [Row, Row];
console.log(
  `\nthis tree / baseline: requests/s ${fmt((100 * med(ourRow, "rps")) / med(base, "rps"))} %, CPU per request ${fmt((100 * med(ourRow, "cpuUs")) / med(base, "cpuUs"))} %`,
);
