import { first, forUpdate } from "../db/transaction.ts";
import { and, desc, eq, inArray, isNotNull, isNull, lt, ne, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { dbTimeAgo } from "../db/portable-sql.ts";
import { announceRunChange } from "../db/run-wakeups.ts";
import { processingRuns } from "../db/schema/index.ts";
import type { QuotaSource } from "../users/quota.queries.ts";
import type { RunEvent } from "./live-run.ts";

export type RunRow = typeof processingRuns.$inferSelect;

export async function findRun(db: Db, conversationId: number, turnMessageId: number): Promise<RunRow | undefined> {
  return await first(
    db
      .select()
      .from(processingRuns)
      .where(and(eq(processingRuns.conversationId, conversationId), eq(processingRuns.turnMessageId, turnMessageId))),
  );
}

/** The conversation's most recent run (the one a client re-attaches to). */
export async function latestRun(db: Db, conversationId: number): Promise<RunRow | undefined> {
  return await first(
    db.select().from(processingRuns).where(eq(processingRuns.conversationId, conversationId)).orderBy(desc(processingRuns.turnMessageId)).limit(1),
  );
}

async function listRuns(db: Db, conversationId: number): Promise<RunRow[]> {
  return await db.select().from(processingRuns).where(eq(processingRuns.conversationId, conversationId));
}

/**
 * The once-only claim of a turn: the unique (conversation, turn) index lets
 * exactly one caller insert; a failed run may be claimed again (a retry after
 * "veuillez réessayer"), again by exactly one caller. Null when someone else holds it.
 */
export async function claimRun(
  db: Db,
  p: { conversationId: number; turnMessageId: number; userId: number; server: string; now: Date },
): Promise<RunRow | null> {
  const inserted = await first(
    db
      .insert(processingRuns)
      .values({ ...p, status: "running", createdAt: p.now, heartbeatAt: dbTimeAgo(db) })
      .onConflictDoNothing()
      .returning(),
  );
  if (inserted) return inserted;
  const retaken = await first(
    db
      .update(processingRuns)
      .set({
        status: "running",
        error: null,
        charged: false,
        chargedFrom: null,
        createdAt: p.now,
        finishedAt: null,
        server: p.server,
        heartbeatAt: dbTimeAgo(db),
      })
      .where(and(eq(processingRuns.conversationId, p.conversationId), eq(processingRuns.turnMessageId, p.turnMessageId), eq(processingRuns.status, "failed")))
      .returning(),
  );
  return retaken ?? null;
}

export async function markCharged(db: Db, runId: number, source: QuotaSource): Promise<void> {
  await db.update(processingRuns).set({ charged: true, chargedFrom: source }).where(eq(processingRuns.id, runId));
}

export async function listRunningRuns(db: Db): Promise<RunRow[]> {
  return await db.select().from(processingRuns).where(eq(processingRuns.status, "running"));
}

/**
 * Takes the run's charge back if this server still carries the run out and
 * it is still charged; true when the caller is to refund. So a request is
 * refunded at most once, even when another server's sweep failed (and
 * refunded) the run of this one while it was stalled.
 */
export async function releaseCharge(db: Db, runId: number, server: string): Promise<boolean> {
  const released = await first(
    db
      .update(processingRuns)
      .set({ charged: false, chargedFrom: null })
      .where(and(eq(processingRuns.id, runId), eq(processingRuns.charged, true), eq(processingRuns.server, server), eq(processingRuns.status, "running")))
      .returning({ id: processingRuns.id }),
  );
  return released !== undefined;
}

/**
 * Whether this server still carries the run out (running, its server): the
 * run's row locked until the transaction ends. False once another server's
 * sweep failed it (and maybe a retry claimed it again): the late outcome of
 * a stalled server is then dropped rather than written over the row.
 */
export async function holdsRun(tx: Db, runId: number, server: string): Promise<boolean> {
  const row = await first(
    forUpdate(
      tx
        .select({ id: processingRuns.id })
        .from(processingRuns)
        .where(and(eq(processingRuns.id, runId), eq(processingRuns.server, server), eq(processingRuns.status, "running"))),
    ),
  );
  return row !== undefined;
}

/** `charged` false records a degraded answer given for free (the refund happened in the same transaction). */
export async function finishRun(db: Db, runId: number, resultMessageId: number, now: Date, events: RunEvent[], charged: boolean): Promise<void> {
  const refund = charged ? {} : { charged: false, chargedFrom: null };
  await db
    .update(processingRuns)
    .set({ status: "done", resultMessageId, finishedAt: now, events, ...refund })
    .where(eq(processingRuns.id, runId));
  await announceRunChange(db, runId);
}

/** A failed run keeps the error code its waiters answer with; `charged` false records the refund. */
export async function failRun(db: Db, runId: number, code: string, now: Date, events?: RunEvent[]): Promise<void> {
  await db
    .update(processingRuns)
    .set({ status: "failed", error: code, charged: false, chargedFrom: null, finishedAt: now, ...(events ? { events } : {}) })
    .where(eq(processingRuns.id, runId));
  await announceRunChange(db, runId);
}

/** A run dropped before it was of any use (run-drop.ts): gone, as if never claimed. */
export async function deleteRun(db: Db, runId: number): Promise<void> {
  await db.delete(processingRuns).where(eq(processingRuns.id, runId));
  await announceRunChange(db, runId);
}

/** A run of this conversation still in progress, if any (/chat and delete wait for it). */
export async function runningRunOf(db: Db, conversationId: number): Promise<RunRow | undefined> {
  return await first(
    db
      .select()
      .from(processingRuns)
      .where(and(eq(processingRuns.conversationId, conversationId), eq(processingRuns.status, "running"))),
  );
}

/** The user messages whose run failed, but for `except` (the turn being retried): a new message after one starts a new turn. */
export async function closedTurns(db: Db, conversationId: number, except?: number): Promise<Set<number>> {
  return new Set((await listRuns(db, conversationId)).filter((r) => r.status === "failed" && r.turnMessageId !== except).map((r) => r.turnMessageId));
}

/** The events so far of a run in progress (a client of another server process reads them). */
export async function saveRunEvents(db: Db, runId: number, server: string, events: RunEvent[]): Promise<void> {
  await db
    .update(processingRuns)
    .set({ events })
    .where(and(eq(processingRuns.id, runId), eq(processingRuns.server, server), eq(processingRuns.status, "running")));
  await announceRunChange(db, runId);
}

export async function findRunById(db: Db, runId: number): Promise<RunRow | undefined> {
  return await first(db.select().from(processingRuns).where(eq(processingRuns.id, runId)));
}

/**
 * The owning server's heartbeat: one UPDATE for the runs it has in memory
 * (`ids`), not for every running row it wrote; returns those it still holds.
 */
export async function beatRuns(db: Db, server: string, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db
    .update(processingRuns)
    .set({ heartbeatAt: dbTimeAgo(db) })
    .where(and(eq(processingRuns.server, server), eq(processingRuns.status, "running"), inArray(processingRuns.id, [...ids])))
    .returning({ id: processingRuns.id });
  return new Set(rows.map((r) => r.id));
}

/** This server's running rows (the own-orphan sweep compares them with its memory). */
export async function listOwnRunningRuns(db: Db, server: string): Promise<RunRow[]> {
  return await db
    .select()
    .from(processingRuns)
    .where(and(eq(processingRuns.server, server), eq(processingRuns.status, "running")));
}

/** The run, locked, if it is still running as this server's. */
export async function lockOwnRunningRun(tx: Db, runId: number, server: string): Promise<RunRow | undefined> {
  return await first(
    forUpdate(
      tx
        .select()
        .from(processingRuns)
        .where(and(eq(processingRuns.id, runId), eq(processingRuns.server, server), eq(processingRuns.status, "running"))),
    ),
  );
}

/**
 * Running runs of another server whose heartbeat is older than `staleMs` by
 * the database's clock (a run written before heartbeats existed counts from
 * its start). Used as a condition again where the sweep fails one, so it is
 * read and written alike.
 */
export function staleRunCondition(db: Db, server: string, staleMs: number) {
  const before = dbTimeAgo(db, staleMs);
  return and(
    eq(processingRuns.status, "running"),
    or(isNull(processingRuns.server), ne(processingRuns.server, server)),
    or(
      and(isNotNull(processingRuns.heartbeatAt), lt(processingRuns.heartbeatAt, before)),
      and(isNull(processingRuns.heartbeatAt), lt(processingRuns.createdAt, before)),
    ),
  );
}

export async function listStaleRuns(db: Db, server: string, staleMs: number): Promise<RunRow[]> {
  return await db
    .select()
    .from(processingRuns)
    .where(staleRunCondition(db, server, staleMs));
}

/** The run, locked, if it is still stale (another sweeper has not failed it meanwhile). */
export async function lockStaleRun(tx: Db, runId: number, server: string, staleMs: number): Promise<RunRow | undefined> {
  return await first(
    forUpdate(
      tx
        .select()
        .from(processingRuns)
        .where(and(eq(processingRuns.id, runId), staleRunCondition(tx, server, staleMs))),
    ),
  );
}
