/**
 * How the suite's test files are shared between parallel `bun test`
 * processes. A file runs in one of four kinds of process: server and CLI
 * tests on SQLite, the same server tests on PostgreSQL, web components
 * (happy-dom's globals must never reach the others) and the browser tests.
 * Files are independent (each takes its own in-memory database, temporary
 * folder, free ports and PostgreSQL database), so any file can go in any
 * lane; a lane runs one process per kind it was given, one after the other.
 */
export type Kind = "sqlite" | "postgres" | "web" | "e2e";
export type Job = { kind: Kind; file: string };
export type Lane = { jobs: Job[]; estimateMs: number };
type Timings = Record<string, { ms: number }>;

/** The key of a job in the timings file: the PostgreSQL pass of a file is timed apart from its SQLite pass. */
export const jobKey = (job: Job) => `${job.kind}:${job.file}`;

/** The kind of process a test file needs (the PostgreSQL pass is added from test/server/postgres-files.ts). */
export function kindOf(file: string): Kind {
  if (file.startsWith("test/web/")) return "web";
  if (file.startsWith("test/e2e/")) return "e2e";
  return "sqlite";
}

/** A file never timed yet: about the median of the suite's files. */
const UNKNOWN_MS = 3_000;

/**
 * Longest job first, each to the lane with the least work so far (the
 * classic LPT rule: within 4/3 of the best split). Ties are broken by the
 * file's name, so the same timings always give the same lanes.
 */
export function planLanes(jobs: Job[], count: number, timings: Timings): Lane[] {
  const lanes: Lane[] = Array.from({ length: Math.max(1, count) }, () => ({ jobs: [], estimateMs: 0 }));
  const estimate = (job: Job) => timings[jobKey(job)]?.ms ?? UNKNOWN_MS;
  const sorted = [...jobs].sort((a, b) => estimate(b) - estimate(a) || jobKey(a).localeCompare(jobKey(b)));
  for (const job of sorted) {
    const lane = lanes.reduce((least, l) => (l.estimateMs < least.estimateMs ? l : least));
    lane.jobs.push(job);
    lane.estimateMs += estimate(job);
  }
  return lanes.filter((l) => l.jobs.length > 0);
}

/**
 * A lane's files grouped by kind, one `bun test` process each (one per
 * file for web components). Lane n starts
 * `offset` kinds further along, so the lanes do not all begin with the same
 * kind: when every lane began with its PostgreSQL files (the longest), the
 * four processes loaded the one cluster at once, then all left it idle.
 */
export function processesOf(lane: Lane, offset = 0): Array<{ kind: Kind; files: string[] }> {
  const byKind = new Map<Kind, string[]>();
  for (const job of lane.jobs) byKind.set(job.kind, [...(byKind.get(job.kind) ?? []), job.file]);
  // Each web file in a process of its own: files sharing one process share react-dom, its scheduler and happy-dom's
  // window, and one that leaves them in a bad state stalls every render of the next (React 19 after the pricing
  // harness: the next file's screens never rendered, and one such process grew to 22 GB and was killed).
  const list = [...byKind].flatMap(
    ([kind, files]): Array<{ kind: Kind; files: string[] }> => (kind === "web" ? files.map((file) => ({ kind, files: [file] })) : [{ kind, files }]),
  );
  const start = list.length > 0 ? offset % list.length : 0;
  return [...list.slice(start), ...list.slice(0, start)];
}
