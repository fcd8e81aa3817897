import type { Deps } from "../deps.ts";
import { transaction } from "../db/transaction.ts";
import { leaseOwner } from "../system/lease.ts";
import { failAbandonedRun } from "./run-ending.ts";
import { listRunningRuns, type RunRow } from "./runs.queries.ts";

/**
 * At server start, before serving: a final processing still marked "running"
 * was cut short by a crash or a kill (only the server process runs them, and
 * one server owns a database). Each one gets its request back and is marked
 * failed, so the user can simply ask again and is never charged for nothing.
 */
export async function recoverInterruptedRuns(deps: Deps): Promise<number> {
  const { db, clock, log } = deps;
  // PostgreSQL: other live servers' runs are "running" too; a dead server's are told apart by their stale heartbeat
  // and refunded by any server's sweep within a minute (run-liveness.ts), this one's included once it is up.
  if (deps.config.databaseUrl) return 0;
  const runs = (await listRunningRuns(db)).filter(await abandonedBy(deps));
  for (const run of runs) {
    // With its "failed" event, numbered above what the dead process may have sent: a client resuming with Last-Event-ID gets it.
    await transaction(db, async (tx) => await failAbandonedRun(tx, run, clock.now()));
  }
  if (runs.length) log.warn("interrupted final processings refunded", { count: runs.length });
  return runs.length;
}

/**
 * Only runs whose holder's lease is gone: never those of another live server
 * on this database, nor those this process started after taking the lease.
 */
async function abandonedBy({ db, clock, lease }: Deps): Promise<(run: RunRow) => boolean> {
  const owner = await leaseOwner(db, lease, clock.now());
  return (run) => owner === "none" || (owner === "ours" && !!lease && run.createdAt < lease.acquiredAt);
}
