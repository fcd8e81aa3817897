import { underJobLock } from "../db/job-lock.ts";
import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { failAbandonedRun } from "./run-ending.ts";
import { beatRuns, listOwnRunningRuns, listStaleRuns, lockOwnRunningRun, lockStaleRun, type RunRow } from "./runs.queries.ts";

/**
 * Runs across servers (docs/DECISIONS.md, "Runs across servers"): each run
 * records the server carrying it out, which refreshes the heartbeat of all
 * its running runs every `heartbeatMs`. On PostgreSQL every server sweeps
 * every `sweepMs` (one at a time, under an advisory lock) for runs of
 * another server whose heartbeat is older than `staleMs`: that server died,
 * so each such run is failed and refunded, and its turn can be asked again.
 * With these figures a dead server's runs are refunded within
 * staleMs + sweepMs + heartbeatMs = 55 s. On SQLite one server owns the
 * database and the next start does it (src/chat/recovery.ts): no timers.
 */
export type RunTimings = { heartbeatMs: number; staleMs: number; sweepMs: number };

export const RUN_TIMINGS: RunTimings = { heartbeatMs: 10_000, staleMs: 30_000, sweepMs: 15_000 };

/**
 * Refreshes the heartbeat of this server's runs in memory (none: nothing
 * written), and only of those: a row of this server that is no longer in its
 * memory gets no heartbeat, so it can be told apart (failOwnOrphans, and the
 * other servers' sweep). A run in flight here that is no longer running as
 * this server's was given up by another server's sweep while this one stalled
 * (failed and refunded there): its model calls are stopped now rather than
 * paid for until the budget ends; whatever it would write is refused anyway
 * (`holdsRun`). Only the runs in memory before the UPDATE are judged: one
 * claimed while it ran is not in what it returns, and is not given up.
 */
export async function beatOwnRuns(deps: Deps): Promise<void> {
  const before = [...deps.ai.live.keys()];
  if (before.length === 0) return;
  const held = await beatRuns(deps.db, deps.ai.serverId, before);
  for (const id of before) {
    const live = deps.ai.live.get(id);
    if (!live || held.has(id) || live.finished || live.abort.signal.aborted) continue;
    live.abort.abort();
    deps.log.warn("run given up by another server: its model calls are stopped", { run: id });
  }
}

/**
 * Fails and refunds this server's running rows that are no longer in its
 * memory: a run whose final write failed and could not be failed either, or
 * whose process state was lost. Rows being claimed (committed, not yet in
 * memory) are left for the next beat; each row is locked and checked again
 * (still running, still this server's, still not in memory) before it is failed.
 */
export async function failOwnOrphans(deps: Deps): Promise<number> {
  const { db, clock, log } = deps;
  const isOrphan = (run: RunRow) => !deps.ai.live.has(run.id) && !deps.ai.claiming.has(run.conversationId);
  let failed = 0;
  for (const candidate of (await listOwnRunningRuns(db, deps.ai.serverId)).filter(isOrphan)) {
    const done = await transaction(db, async (tx) => {
      const run = await lockOwnRunningRun(tx, candidate.id, deps.ai.serverId);
      if (!run || !isOrphan(run)) return false;
      await failAbandonedRun(tx, run, clock.now());
      return true;
    });
    if (done) {
      failed += 1;
      log.error("run of this server no longer carried out: failed and refunded", { run: candidate.id });
    }
  }
  return failed;
}

/**
 * Fails and refunds every run of another server whose heartbeat is older
 * than `staleMs` by the database's clock (a server whose clock is ahead
 * does not take the others' live runs for dead ones). Each in its own transaction that locks the run only if it
 * is still running and still stale, so two sweepers at once refund it once,
 * and a run whose server came back to life in between is left alone. Never
 * this server's own runs, nor anything in any server's memory: only rows.
 */
export async function sweepDeadServersRuns(deps: Deps, staleMs = RUN_TIMINGS.staleMs): Promise<number> {
  const { db, clock, log } = deps;
  let failed = 0;
  for (const stale of await listStaleRuns(db, deps.ai.serverId, staleMs)) {
    const done = await transaction(db, async (tx) => {
      const run = await lockStaleRun(tx, stale.id, deps.ai.serverId, staleMs);
      if (!run) return false;
      // Followers on every server end their stream with its event (they resume nothing more: the turn can be retried).
      await failAbandonedRun(tx, run, clock.now());
      return true;
    });
    if (done) {
      failed += 1;
      log.warn("run of a dead server refunded", { run: stale.id, server: stale.server, heartbeat_at: stale.heartbeatAt });
    }
  }
  return failed;
}

/**
 * The server's timers for its runs on PostgreSQL: the heartbeat and the sweep
 * of dead servers' runs, each never twice at once. None on SQLite (one
 * server per file; a run records its server and its start, and the next
 * start recovers it). Returns stop(), which waits for a beat or sweep in flight.
 */
export function startRunLiveness(deps: Deps, timings: RunTimings = RUN_TIMINGS): { stop(): Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  const every = (name: string, ms: number, work: () => Promise<unknown>, atOnce = false) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const p = work()
        .catch((e) => deps.log.warn(`${name} failed`, { error: e }))
        .finally(() => {
          busy = false;
          inFlight.delete(p);
        });
      inFlight.add(p);
    };
    if (atOnce) tick();
    return setInterval(tick, ms);
  };
  const beat = async () => {
    await beatOwnRuns(deps);
    await failOwnOrphans(deps);
  };
  // SQLite: one server per file, so no heartbeat to compare and no sweep of others (the next start recovers them);
  // its own orphans are still failed at every beat.
  const timers = deps.config.databaseUrl
    ? [
        every("run heartbeat", timings.heartbeatMs, beat, true),
        // Also once at start: a server started to replace a dead one refunds its runs at once.
        every("run sweep", timings.sweepMs, () => underJobLock(deps.db, "run-sweep", () => sweepDeadServersRuns(deps, timings.staleMs)), true),
      ]
    : [every("run orphans", timings.heartbeatMs, () => failOwnOrphans(deps), true)];
  return {
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...inFlight]);
    },
  };
}
