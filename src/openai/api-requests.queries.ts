import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiRequests, attachments, processingRuns } from "../db/schema/index.ts";
import { first } from "../db/transaction.ts";

export type ApiRequestRow = typeof apiRequests.$inferSelect;
export type RequestKey = { apiKeyId: number; requestKey: string; bodyHash: string };

export async function findApiRequest(db: Db, k: RequestKey): Promise<ApiRequestRow | undefined> {
  return await first(
    db
      .select()
      .from(apiRequests)
      .where(and(eq(apiRequests.apiKeyId, k.apiKeyId), eq(apiRequests.requestKey, k.requestKey))),
  );
}

/** The request's row for a new conversation, unless another request holds the key (then undefined: see `joinable`). */
export async function insertApiRequest(db: Db, k: RequestKey, conversationId: number, now: Date): Promise<ApiRequestRow | undefined> {
  return await first(
    db
      .insert(apiRequests)
      .values({ ...k, conversationId, createdAt: now })
      .onConflictDoNothing()
      .returning(),
  );
}

/** Moves a key whose earlier run may no longer be joined to a new conversation; undefined if another request moved it first. */
export async function retakeApiRequest(db: Db, row: ApiRequestRow, k: RequestKey, conversationId: number, now: Date): Promise<ApiRequestRow | undefined> {
  return await first(
    db
      .update(apiRequests)
      .set({ conversationId, bodyHash: k.bodyHash, createdAt: now, readAt: null })
      .where(and(eq(apiRequests.id, row.id), eq(apiRequests.conversationId, row.conversationId)))
      .returning(),
  );
}

export async function markApiRequestRead(db: Db, id: number, now: Date): Promise<void> {
  await db.update(apiRequests).set({ readAt: now }).where(eq(apiRequests.id, id));
}

/** The latest run of a /v1 conversation (it has one question), or undefined before its run is claimed. */
export async function latestRunOf(db: Db, conversationId: number) {
  return await first(
    db
      .select({ status: processingRuns.status, error: processingRuns.error, finishedAt: processingRuns.finishedAt, events: processingRuns.events })
      .from(processingRuns)
      .where(eq(processingRuns.conversationId, conversationId))
      .orderBy(desc(processingRuns.id))
      .limit(1),
  );
}

/** Files a /v1 request stored for a question it did not store after all (it joined an identical one): none stays unattached. */
export async function forgetUnsentFiles(db: Db, ids: readonly number[], userId: number): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(attachments).where(and(inArray(attachments.id, [...ids]), eq(attachments.userId, userId), isNull(attachments.messageId)));
}
