import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { addCounts, type Counts, noCounts, parseCounts } from "./counts.ts";
import { jobKey, type Kind, type Lane, processesOf } from "./lanes.ts";
import { fileDurations, type Timing } from "./timings.ts";

/**
 * Runs a command to its end; returns its exit code, what it printed (stdout
 * and stderr in one text) and its CPU time in seconds, user and system, its
 * own and its children's (a browser, an executable under test: the kernel
 * adds what each reaped child used to its parent's).
 */
async function capture(cmd: string[], cwd: string, env?: Record<string, string | undefined>): Promise<{ code: number; text: string; cpu: number }> {
  const proc = Bun.spawn(cmd, { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  return { code, text: out + err, cpu: Number(proc.resourceUsage()?.cpuTime.total ?? 0) / 1e6 };
}

/** CPU seconds as the runner prints them. */
export const cpuText = (s: number) => `${s.toFixed(0)} s de CPU`;

/** A step that is not a test file (web build, lint, type check, executable): one line, its output only when it failed. */
export async function runStep(label: string, cmd: string[], cwd: string): Promise<{ ok: boolean; cpu: number }> {
  const t0 = performance.now();
  const { code, text, cpu } = await capture(cmd, cwd);
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  if (code === 0) console.log(`=== ${label} : ok (${secs} s, ${cpuText(cpu)})`);
  else console.log(`\n=== ${label} : ÉCHEC (code ${code}, ${secs} s)\n${text}`);
  return { ok: code === 0, cpu };
}

/** CPU seconds of a lane's processes, by kind of process. */
export type CpuByKind = Partial<Record<Kind, number>>;
export type LaneResult = { counts: Counts; timings: Record<string, Timing>; crashed: number; cpu: CpuByKind };

/**
 * One lane: a `bun test` process per kind of file it holds, one after the
 * other. Each process's report is printed whole when it ends (parallel
 * lanes never interleave their lines), and its JUnit report gives the
 * duration and test count of each file for the next plan.
 */
export async function runLane(
  lane: Lane,
  index: number,
  opts: { root: string; env: Record<string, string | undefined>; bunArgs: string[] },
): Promise<LaneResult> {
  const result: LaneResult = { counts: noCounts(), timings: {}, crashed: 0, cpu: {} };
  const reports = mkdtempSync(join(tmpdir(), "unisson-junit-"));
  try {
    for (const [n, { kind, files }] of processesOf(lane, index - 1).entries()) {
      const junit = join(reports, `${n}.xml`);
      const env: Record<string, string | undefined> = { ...opts.env, TEST_DATABASE: "postgres" };
      if (kind !== "postgres") delete env.TEST_DATABASE;
      const args = files.map((f) => (isAbsolute(f) ? f : `./${f}`));
      const t0 = performance.now();
      const cmd = [process.execPath, "test", "--timeout", "30000", "--reporter=junit", `--reporter-outfile=${junit}`, ...opts.bunArgs, ...args];
      const { code, text, cpu } = await capture(cmd, opts.root, env);
      result.cpu[kind] = (result.cpu[kind] ?? 0) + cpu;
      const counts = parseCounts(text);
      if (code !== 0 && counts.failed === 0) result.crashed++;
      result.counts = addCounts(result.counts, counts);
      try {
        for (const [file, t] of Object.entries(fileDurations(readFileSync(junit, "utf8")))) {
          // Files of the repository only (a path given from elsewhere is not part of the suite's plan).
          if (!file.startsWith("..") && !isAbsolute(file)) result.timings[jobKey({ kind, file })] = t;
        }
      } catch {
        // No report (the process died early): its files keep their last timings.
      }
      const secs = ((performance.now() - t0) / 1000).toFixed(0);
      const summary = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${code !== 0 ? `, code ${code}` : ""}`;
      console.log(`\n=== [voie ${index}] bun test (${kind}, ${files.length} fichiers, ${secs} s, ${cpuText(cpu)}) : ${summary}\n${text.trimEnd()}`);
    }
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
  return result;
}
