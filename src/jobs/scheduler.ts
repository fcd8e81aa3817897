import { assertNotBusy, isBusyError, markBusy } from "../db/busy.ts";
import { underJobLock } from "../db/job-lock.ts";
import type { Deps } from "../deps.ts";
import type { Job } from "./job.ts";

/**
 * Runs each job on its own interval, never two runs of one job at once (on
 * PostgreSQL, not on two servers either: src/db/job-lock.ts); a failing run
 * is logged and the next one happens as planned. Returns stop(),
 * which waits for runs in flight.
 */
export function startJobs(deps: Deps, jobs: Job[]): { stop(): Promise<void> } {
  const running = new Map<string, Promise<void>>();
  const timers: Array<ReturnType<typeof setInterval>> = [];
  let stopped = false;

  const tick = (job: Job) => {
    if (stopped || running.has(job.name)) return;
    // A lock held by another process moments ago: skip this run rather than
    // freeze the event loop for the busy timeout (src/db/busy.ts).
    try {
      assertNotBusy(deps.db);
    } catch {
      deps.log.debug("job skipped: database busy", { job: job.name });
      return;
    }
    const started = performance.now();
    const run = (async () => {
      try {
        const held = await underJobLock(deps.db, job.name, async () => await job.run(deps));
        if (!held.ran) {
          deps.log.debug("job skipped: another server runs it", { job: job.name });
          return;
        }
        deps.metrics.jobRuns.inc({ job: job.name, outcome: "ok" });
        deps.log.debug("job done", { job: job.name, ms: Math.round(performance.now() - started), outcome: held.value });
      } catch (e) {
        deps.metrics.jobRuns.inc({ job: job.name, outcome: "failed" });
        if (isBusyError(e)) markBusy(deps.db);
        deps.log.error("job failed", { job: job.name, error: e });
      } finally {
        running.delete(job.name);
      }
    })();
    running.set(job.name, run);
  };

  for (const job of jobs) {
    timers.push(setInterval(() => tick(job), job.everyMs));
    if (job.runAtStart) timers.push(setTimeout(() => tick(job), 1_000));
  }

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.allSettled(running.values());
    },
  };
}

/** One run of every job now, in order (the CLI's `renewals run`, tests). */
export async function runJobsOnce(deps: Deps, jobs: Job[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const job of jobs) {
    const held = await underJobLock(deps.db, job.name, async () => await job.run(deps));
    out[job.name] = held.ran ? held.value : { skipped: "another server is running it" };
  }
  return out;
}
