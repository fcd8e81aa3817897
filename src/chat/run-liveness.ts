import { underJobLock } from "../db/job-lock.ts";
import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { refundOneQuery } from "../users/quota.queries.ts";
import type { RunEvent } from "./live-run.ts";
import { beatRuns, failRun, listStaleRuns, lockStaleRun } from "./runs.queries.ts";

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
 * Refreshes the heartbeat of this server's running runs (none in flight:
 * nothing written). A run in flight here that is no longer running as this
 * server's was given up by another server's sweep while this one stalled
 * (failed and refunded there): its model calls are stopped now rather than
 * paid for until the budget ends; whatever it would write is refused anyway
 * (`holdsRun`).
 */
export async function beatOwnRuns(deps: Deps): Promise<void> {
  if (deps.ai.live.size === 0) return;
  const held = await beatRuns(deps.db, deps.ai.serverId, deps.clock.now());
  for (const [id, live] of deps.ai.live) {
    if (held.has(id) || live.finished || live.abort.signal.aborted) continue;
    live.abort.abort();
    deps.log.warn("run given up by another server: its model calls are stopped", { run: id });
  }
}

/**
 * Fails and refunds every run of another server whose heartbeat is older
 * than `staleMs`. Each in its own transaction that locks the run only if it
 * is still running and still stale, so two sweepers at once refund it once,
 * and a run whose server came back to life in between is left alone. Never
 * this server's own runs, nor anything in any server's memory: only rows.
 */
export async function sweepDeadServersRuns(deps: Deps, staleMs = RUN_TIMINGS.staleMs): Promise<number> {
  const { db, clock, log } = deps;
  const before = new Date(clock.now().getTime() - staleMs);
  let failed = 0;
  for (const stale of await listStaleRuns(db, deps.ai.serverId, before)) {
    const done = await transaction(db, async (tx) => {
      const run = await lockStaleRun(tx, stale.id, deps.ai.serverId, before);
      if (!run) return false;
      if (run.charged && run.chargedFrom) await refundOneQuery(tx, run.userId, run.chargedFrom, clock.now());
      // Followers on every server end their stream with this event (they resume nothing more: the turn can be retried).
      const events = (run.events ?? []) as RunEvent[];
      const lastId = events.reduce((max, e) => Math.max(max, Number(e.id) || 0), 0);
      const code = "SERVICE_UNAVAILABLE";
      const failedEvent: RunEvent = { id: lastId + 1, type: "failed", data: { code, detail: new AppError(code).message, refunded: true, answers: [] } };
      await failRun(tx, run.id, code, clock.now(), [...events, failedEvent]);
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
  if (!deps.config.databaseUrl) return { stop: async () => {} };
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
  const timers = [
    every("run heartbeat", timings.heartbeatMs, () => beatOwnRuns(deps)),
    // Also once at start: a server started to replace a dead one refunds its runs at once.
    every("run sweep", timings.sweepMs, () => underJobLock(deps.db, "run-sweep", () => sweepDeadServersRuns(deps, timings.staleMs)), true),
  ];
  return {
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...inFlight]);
    },
  };
}
