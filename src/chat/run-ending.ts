import type { Db } from "../db/client.ts";
import { AppError, type ErrorCode } from "../lib/errors.ts";
import { refundOneQuery } from "../users/quota.queries.ts";
import type { RunEvent } from "./live-run.ts";
import { failRun, type RunRow } from "./runs.queries.ts";

/**
 * Ids a process may have sent live but not stored: text deltas are never
 * stored and the other events are stored every 250 ms. A run emits at most a
 * few tens of thousands of events (3 000 tokens a synthesis, six synthesisers
 * at most), so a terminal event written by anyone but the run's own process
 * (a restart, a sweep) is numbered this far above the last stored id: above
 * every id a client following the dead process may have seen.
 */
export const UNSEEN_IDS_MARGIN = 100_000;

export function lastStoredId(events: readonly RunEvent[] | null | undefined): number {
  return (events ?? []).reduce((max, e) => Math.max(max, Number(e.id) || 0), 0);
}

/** The "failed" event that ends a run its process no longer carries out. */
export function abandonedFailedEvent(events: readonly RunEvent[] | null | undefined, code: ErrorCode = "SERVICE_UNAVAILABLE"): RunEvent {
  return { id: lastStoredId(events) + UNSEEN_IDS_MARGIN, type: "failed", data: { code, detail: new AppError(code).message, refunded: true, answers: [] } };
}

/**
 * Fails and refunds a run nobody carries out any more (its server died, or
 * lost it from memory), with its terminal event stored: followers on every
 * server, and a client resuming with any Last-Event-ID it may hold, get it.
 * The caller has locked the row and checked it is still running.
 */
export async function failAbandonedRun(tx: Db, run: RunRow, now: Date): Promise<void> {
  if (run.charged && run.chargedFrom) await refundOneQuery(tx, run.userId, run.chargedFrom, now);
  const events = (run.events ?? []) as RunEvent[];
  await failRun(tx, run.id, "SERVICE_UNAVAILABLE", now, [...events, abandonedFailedEvent(events)]);
}
