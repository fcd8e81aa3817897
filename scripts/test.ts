/**
 * The whole test suite (`npm test`), or the files and folders given
 * (`bun scripts/test.ts test/server/chat`): the web build, then the lint and
 * the type check beside the test files, which run in parallel `bun test`
 * processes ("lanes", scripts/test-runner/lanes.ts) balanced by each file's
 * measured duration. Server files run twice, on SQLite and on one throwaway
 * PostgreSQL cluster shared by the whole run (each file takes its own
 * databases on it). The compiled executable is built once for every process.
 * Ends with one line, `Total: N passed, N failed, N skipped`, and a non-zero
 * exit if anything failed. REQUIRE_POSTGRES=1 / REQUIRE_E2E=1 make a missing
 * PostgreSQL or Chromium a failure (scripts/test-runner/requirements.ts).
 * docs/TESTING.md explains the choices and the measured times.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { HTTP_CLIENT_ENV } from "../src/system/http-client-cap.ts";
import { CHROMIUM } from "../test/helpers/chromium.ts";
import { findPgBin, type PostgresCluster, startPostgresCluster } from "../test/helpers/postgres.ts";
import { POSTGRES_FILES } from "../test/server/postgres-files.ts";
import { addCounts, type Counts, noCounts, totalLine } from "./test-runner/counts.ts";
import { type Job, type Kind, kindOf, planLanes } from "./test-runner/lanes.ts";
import { missingRequirements } from "./test-runner/requirements.ts";
import { type CpuByKind, runLane, runStep } from "./test-runner/run.ts";
import { readTimings, type Timing, writeTimings } from "./test-runner/timings.ts";

const root = join(import.meta.dir, "..");
const started = performance.now();
const args = process.argv.slice(2);
const paths = args.filter((a) => !a.startsWith("-"));
const bunArgs = args.filter((a) => a.startsWith("-"));
const fullRun = paths.length === 0;

const pgBin = findPgBin();
const missing = missingRequirements(process.env, { pgBin, chromium: CHROMIUM, chromiumPresent: existsSync(CHROMIUM) });
if (missing.length > 0) {
  for (const line of missing) console.error(line);
  console.log(`\n${totalLine({ passed: 0, failed: missing.length, skipped: 0 })}`);
  process.exit(1);
}

/** The test files of the run: every *.test.ts(x) under test/ (benchmarks are *.bench.ts), or those under the paths given. */
function testFiles(): string[] {
  const glob = new Bun.Glob("**/*.test.{ts,tsx}");
  const named = (abs: string) => {
    const rel = relative(root, abs);
    return rel.startsWith("..") ? abs : rel;
  };
  return (fullRun ? ["test"] : paths)
    .flatMap((p) => {
      const abs = resolve(root, p);
      if (!existsSync(abs) || !statSync(abs).isDirectory()) return [named(abs)];
      return [...glob.scanSync({ cwd: abs })].map((f) => named(join(abs, f)));
    })
    .sort();
}

let failedSteps = 0;
let stepsCpu = 0;
const step = async (label: string, cmd: string[]) => {
  const { ok, cpu } = await runStep(label, cmd, root);
  stepsCpu += cpu;
  if (!ok) failedSteps++;
  return ok;
};

// The server imports the SPA's manifest: the web build comes first.
if (fullRun && !(await step("build:web", [process.execPath, "scripts/build-web.ts"]))) {
  console.log(`\n${totalLine({ passed: 0, failed: 1, skipped: 0 })}`);
  process.exit(1);
}
const checks = fullRun ? [step("lint", ["node_modules/.bin/biome", "check", "."]), step("typecheck", ["node_modules/.bin/tsc", "--noEmit"])] : [];

// One executable for every process (test/helpers/binary.ts reads UNISSON_TEST_BINARY), built while PostgreSQL starts.
const binDir = mkdtempSync(join(tmpdir(), "unisson-testbin-"));
const binary = join(binDir, "unisson");
const binaryBuilt = fullRun ? step("build:binary", [process.execPath, "scripts/build-binary.ts", binary]) : Promise.resolve(false);

let postgres: PostgresCluster | undefined;
if (pgBin) {
  postgres = startPostgresCluster(pgBin);
  console.log(`PostgreSQL de test : ${postgres.url} (${pgBin})`);
} else {
  console.log("PostgreSQL absent (pas d'initdb) : la passe PostgreSQL n'est pas exécutée, ses tests sont comptés comme ignorés");
}
// The cluster is stopped and its folder deleted by its watcher once this process has gone (test/helpers/postgres.ts),
// however the run ends: not waited for here.
process.on("exit", () => rmSync(binDir, { recursive: true, force: true }));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

const env: Record<string, string | undefined> = {
  // The test apps run in the test processes: Bun's HTTP client gets the executable's cap (issue 46; without it,
  // reliability/concurrency's 3,000 model calls queued behind 256 and were abandoned as silent under load).
  ...HTTP_CLIENT_ENV,
  ...process.env,
  ...(postgres ? { TEST_POSTGRES_URL: postgres.url } : {}),
  ...((await binaryBuilt) ? { UNISSON_TEST_BINARY: binary } : {}),
};

const files = testFiles();
const pgFiles = new Set(POSTGRES_FILES);
const jobs: Job[] = files.map((file) => ({ kind: kindOf(file), file }));
const pgJobs: Job[] = files.filter((f) => pgFiles.has(f)).map((file) => ({ kind: "postgres", file }));
if (postgres) jobs.push(...pgJobs);

const committedTimings = join(root, "test", "timings.json");
const localTimings = join(root, "build", "test-timings.json");
const timings = readTimings([committedTimings, localTimings]);
// While one process waits on a server, a browser or a timer, another runs: six lanes on two cores left the machine idle
// 21-47 core-seconds of a run, against 122 with four, for the same CPU (docs/TESTING.md). At most 16: each PostgreSQL
// process holds connections of its own, and the test cluster allows 300.
const laneCount = Number(process.env.TEST_LANES) || Math.min(16, Math.max(2, availableParallelism() * 3));
const lanes = planLanes(jobs, laneCount, timings);
console.log(`${files.length} fichiers, ${jobs.length} passes, ${lanes.length} processus en parallèle`);

const results = await Promise.all(lanes.map((lane, i) => runLane(lane, i + 1, { root, env, bunArgs })));
await Promise.all(checks);

let total: Counts = noCounts();
const measured: Record<string, Timing> = {};
const cpu: CpuByKind = {};
for (const r of results) {
  total = addCounts(total, r.counts);
  Object.assign(measured, r.timings);
  for (const [kind, s] of Object.entries(r.cpu) as Array<[Kind, number]>) cpu[kind] = (cpu[kind] ?? 0) + s;
}
if (!postgres) {
  // Not run, so not silently forgotten: the tests the last measured run counted in the PostgreSQL pass.
  const notRun = pgJobs.reduce((n, job) => n + (timings[`postgres:${job.file}`]?.tests ?? 0), 0);
  total = addCounts(total, { passed: 0, failed: 0, skipped: notRun });
}
writeTimings(localTimings, { ...timings, ...measured });

const slowest = Object.entries(measured)
  .sort(([, a], [, b]) => b.ms - a.ms)
  .slice(0, 8);
console.log("\nFichiers les plus longs :");
for (const [key, t] of slowest) console.log(`  ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${key}`);
// A process that exited non-zero without a failed test (a crash, an error outside any test) and a failed step count as one failure each.
const broken = results.reduce((n, r) => n + r.crashed, 0) + failedSteps;
// Where the time goes (docs/TESTING.md): on a 2-core machine the suite is bound by its CPU time, not by its waits.
const pgCpu = postgres?.cpuSeconds();
const cpuParts = [...(Object.entries(cpu) as Array<[Kind, number]>).map(([kind, s]) => `${kind} ${s.toFixed(0)} s`), `étapes ${stepsCpu.toFixed(0)} s`];
if (pgCpu !== undefined) cpuParts.push(`serveur PostgreSQL ${pgCpu.toFixed(0)} s`);
const cpuTotal = Object.values(cpu).reduce((a, b) => a + b, stepsCpu + (pgCpu ?? 0));
console.log(`Temps CPU : ${cpuTotal.toFixed(0)} s (${cpuParts.join(", ")})`);
console.log(`Durée : ${((performance.now() - started) / 1000).toFixed(0)} s`);
const failed = total.failed + broken;
console.log(`\n${totalLine({ ...total, failed })}`);
process.exit(failed > 0 ? 1 : 0);
