import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { first, one } from "../db/transaction.ts";
import { type SharedSnapshot, sharedLinks } from "../db/schema/index.ts";

export type SharedLinkRow = typeof sharedLinks.$inferSelect;
export type NewSharedLink = {
  userId: number;
  conversationId: number;
  tokenHash: string;
  prefix: string;
  includeModels: boolean;
  snapshot: SharedSnapshot;
  createdAt: Date;
};

export async function insertSharedLink(db: Db, row: NewSharedLink): Promise<SharedLinkRow> {
  return await one(db.insert(sharedLinks).values(row).returning());
}

export async function countSharedLinks(db: Db, userId: number): Promise<number> {
  return (await first(db.select({ n: count() }).from(sharedLinks).where(eq(sharedLinks.userId, userId))))?.n ?? 0;
}

/** The user's links, newest first. */
export async function listSharedLinks(db: Db, userId: number): Promise<SharedLinkRow[]> {
  return await db.select().from(sharedLinks).where(eq(sharedLinks.userId, userId)).orderBy(desc(sharedLinks.createdAt), desc(sharedLinks.id));
}

/** Revokes (deletes) one of the user's links; false when it is not theirs or already gone. */
export async function deleteSharedLink(db: Db, userId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(sharedLinks)
    .where(and(eq(sharedLinks.id, id), eq(sharedLinks.userId, userId)))
    .returning({ id: sharedLinks.id });
  return gone.length > 0;
}

export async function findSharedLink(db: Db, tokenHash: string): Promise<SharedLinkRow | undefined> {
  return await first(db.select().from(sharedLinks).where(eq(sharedLinks.tokenHash, tokenHash)));
}

/** Which of these conversations of the user have at least one live link (the history's mark). */
export async function sharedConversationIds(db: Db, userId: number, conversationIds: number[]): Promise<Set<number>> {
  if (conversationIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: sharedLinks.conversationId })
    .from(sharedLinks)
    .where(and(eq(sharedLinks.userId, userId), inArray(sharedLinks.conversationId, conversationIds)));
  return new Set(rows.map((r) => r.id));
}
