import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { processingRuns } from "../db/schema/index.ts";
import type { QuotaSource } from "../users/quota.queries.ts";

export type RunRow = typeof processingRuns.$inferSelect;

export function findRun(db: Db, conversationId: number, turnMessageId: number): RunRow | undefined {
  return db
    .select()
    .from(processingRuns)
    .where(and(eq(processingRuns.conversationId, conversationId), eq(processingRuns.turnMessageId, turnMessageId)))
    .get();
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

export function finishRun(db: Db, runId: number, resultMessageId: number, now: Date): void {
  db.update(processingRuns).set({ status: "done", resultMessageId, finishedAt: now }).where(eq(processingRuns.id, runId)).run();
}

/** A failed run keeps the error code its waiters answer with; `charged` false records the refund. */
export function failRun(db: Db, runId: number, code: string, now: Date): void {
  db.update(processingRuns).set({ status: "failed", error: code, charged: false, chargedFrom: null, finishedAt: now }).where(eq(processingRuns.id, runId)).run();
}
