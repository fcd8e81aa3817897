import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { processingRuns } from "../db/schema/index.ts";
import type { QuotaSource } from "../users/quota.queries.ts";
import type { RunEvent } from "./live-run.ts";

export type RunRow = typeof processingRuns.$inferSelect;

export function findRun(db: Db, conversationId: number, turnMessageId: number): RunRow | undefined {
  return db
    .select()
    .from(processingRuns)
    .where(and(eq(processingRuns.conversationId, conversationId), eq(processingRuns.turnMessageId, turnMessageId)))
    .get();
}

/** The conversation's most recent run (the one a client re-attaches to). */
export function latestRun(db: Db, conversationId: number): RunRow | undefined {
  return db.select().from(processingRuns).where(eq(processingRuns.conversationId, conversationId)).orderBy(desc(processingRuns.turnMessageId)).limit(1).get();
}

function listRuns(db: Db, conversationId: number): RunRow[] {
  return db.select().from(processingRuns).where(eq(processingRuns.conversationId, conversationId)).all();
}

/**
 * The once-only claim of a turn: the unique (conversation, turn) index lets
 * exactly one caller insert; a failed run may be claimed again (a retry after
 * "veuillez réessayer"), again by exactly one caller. Null when someone else holds it.
 */
export function claimRun(db: Db, p: { conversationId: number; turnMessageId: number; userId: number; now: Date }): RunRow | null {
  const inserted = db
    .insert(processingRuns)
    .values({ ...p, status: "running", createdAt: p.now })
    .onConflictDoNothing()
    .returning()
    .get();
  if (inserted) return inserted;
  const retaken = db
    .update(processingRuns)
    .set({ status: "running", error: null, charged: false, chargedFrom: null, createdAt: p.now, finishedAt: null })
    .where(and(eq(processingRuns.conversationId, p.conversationId), eq(processingRuns.turnMessageId, p.turnMessageId), eq(processingRuns.status, "failed")))
    .returning()
    .get();
  return retaken ?? null;
}

export function markCharged(db: Db, runId: number, source: QuotaSource): void {
  db.update(processingRuns).set({ charged: true, chargedFrom: source }).where(eq(processingRuns.id, runId)).run();
}

export function listRunningRuns(db: Db): RunRow[] {
  return db.select().from(processingRuns).where(eq(processingRuns.status, "running")).all();
}

/** `charged` false records a degraded answer given for free (the refund happened in the same transaction). */
export function finishRun(db: Db, runId: number, resultMessageId: number, now: Date, events: RunEvent[], charged: boolean): void {
  const refund = charged ? {} : { charged: false, chargedFrom: null };
  db.update(processingRuns)
    .set({ status: "done", resultMessageId, finishedAt: now, events, ...refund })
    .where(eq(processingRuns.id, runId))
    .run();
}

/** A failed run keeps the error code its waiters answer with; `charged` false records the refund. */
export function failRun(db: Db, runId: number, code: string, now: Date, events?: RunEvent[]): void {
  db.update(processingRuns)
    .set({ status: "failed", error: code, charged: false, chargedFrom: null, finishedAt: now, ...(events ? { events } : {}) })
    .where(eq(processingRuns.id, runId))
    .run();
}

/** A run of this conversation still in progress, if any (/chat and delete wait for it). */
export function runningRunOf(db: Db, conversationId: number): RunRow | undefined {
  return db
    .select()
    .from(processingRuns)
    .where(and(eq(processingRuns.conversationId, conversationId), eq(processingRuns.status, "running")))
    .get();
}

/** The user messages whose run failed, but for `except` (the turn being retried): a new message after one starts a new turn. */
export function closedTurns(db: Db, conversationId: number, except?: number): Set<number> {
  return new Set(
    listRuns(db, conversationId)
      .filter((r) => r.status === "failed" && r.turnMessageId !== except)
      .map((r) => r.turnMessageId),
  );
}

/** The events so far of a run in progress (a client of another server process reads them). */
export function saveRunEvents(db: Db, runId: number, events: RunEvent[]): void {
  db.update(processingRuns)
    .set({ events })
    .where(and(eq(processingRuns.id, runId), eq(processingRuns.status, "running")))
    .run();
}

export function findRunById(db: Db, runId: number): RunRow | undefined {
  return db.select().from(processingRuns).where(eq(processingRuns.id, runId)).get();
}
