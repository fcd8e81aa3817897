import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** One file's last measured run: its duration and how many tests it has. */
export type Timing = { ms: number; tests: number };

/**
 * Per-file durations, in milliseconds, keyed by `<kind>:<file>`
 * (lanes.ts). The committed test/timings.json is the starting point of a
 * fresh clone; each run writes what it measured to build/test-timings.json
 * (git-ignored), which the next run prefers.
 */
export function readTimings(paths: string[]): Record<string, Timing> {
  const merged: Record<string, Timing> = {};
  for (const path of paths) {
    if (!existsSync(path)) continue;
    try {
      Object.assign(merged, JSON.parse(readFileSync(path, "utf8")) as Record<string, Timing>);
    } catch {
      // A half-written or hand-broken file: the others (or the default estimate) will do.
    }
  }
  return merged;
}

export function writeTimings(path: string, timings: Record<string, Timing>): void {
  mkdirSync(dirname(path), { recursive: true });
  const sorted = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
}

/**
 * Each file's duration and test count from `bun test --reporter=junit`: the outer
 * <testsuite> elements (two spaces deep) are the files, `time` in seconds.
 */
export function fileDurations(junit: string): Record<string, Timing> {
  const out: Record<string, Timing> = {};
  for (const m of junit.matchAll(/^ {2}<testsuite name="[^"]*" file="([^"]+)" tests="(\d+)"[^>]*? time="([\d.]+)"/gm)) {
    out[m[1]!] = { ms: Math.round(Number(m[3]) * 1000), tests: Number(m[2]) };
  }
  return out;
}
