/**
 * `npm run bench`: every benchmark, one after the other (they would skew
 * each other on a 2-core box), each in its own process; stops at the first
 * that fails. Not part of `npm test`: the figures go in docs/BENCHMARKS.md.
 */
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
const runs: Array<[string, string[], Record<string, string>?]> = [
  ["API throughput and latency", ["test/bench/http.bench.ts"]],
  ["server CPU per request against the reference", ["test/bench/per-request.bench.ts"]],
  ["cold start", ["test/bench/cold-start.bench.ts"]],
  ["login screen (size and paint)", ["test/bench/spa.bench.ts"]],
  ["history of 10,000 conversations", ["test/bench/history.bench.ts"]],
  ["Lighthouse: login and app screens, mobile and desktop", ["test/bench/lighthouse.bench.ts"]],
  ["kill -9 under write load", ["test/bench/crash.bench.ts"]],
  ["final processing fan-out (bench:engine)", ["test/bench/engine.bench.ts"], { BUN_CONFIG_MAX_HTTP_REQUESTS: "1024" }],
  ["soft deadline against wait-for-all", ["test/bench/live.bench.ts"], { BUN_CONFIG_MAX_HTTP_REQUESTS: "1024" }],
  ["first text a user can read (issue 34)", ["test/bench/first-text.bench.ts"]],
  ["memory under 10 minutes of mixed load", ["test/bench/memory.bench.ts"]],
  ["memory while exporting 3,000 large conversations", ["test/bench/export-memory.bench.ts"]],
  ["db copy, SQLite to PostgreSQL and back", ["test/bench/db-copy.bench.ts"]],
  ["reading attachments: a 100-page PDF, a DOCX, a large PNG", ["test/bench/attachments.bench.ts"]],
  ["hostile files: memory, fair queue, /api/health (issue 44)", ["test/bench/hostile-files.bench.ts"]],
  ["SQLite and PostgreSQL with one and two servers", ["test/bench/scaling.bench.ts"]],
  ["refusal judgment: confusion table and pre-filter time", ["test/bench/refusal.bench.ts"]],
  ["provider calls per hostile minute on /v1 (issue 47)", ["test/bench/fair-use.bench.ts"]],
  ["heap kept by /v1's JSON Schemas (issue 48)", ["test/bench/json-schemas.bench.ts"]],
  ["a live answer on the wire and in the server's CPU (issue 46)", ["test/bench/live-wire.bench.ts"]],
  ["what web search adds before the first model text (issue 45)", ["test/bench/web-search.bench.ts"]],
];
for (const [name, args, env] of runs) {
  console.log(`\n=== ${name}: bun ${args.join(" ")}`);
  const proc = Bun.spawn([process.execPath, ...args], { cwd: root, stdout: "inherit", stderr: "inherit", env: { ...process.env, ...env } });
  const code = await proc.exited;
  if (code !== 0) {
    console.error(`${name} failed (exit ${code})`);
    process.exit(code);
  }
}
