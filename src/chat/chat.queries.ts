import { first, forUpdate, one } from "../db/transaction.ts";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type ConversationSource, conversations, type MessageType, messages } from "../db/schema/index.ts";

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = {
  sender: "user" | "assistant";
  messageType: MessageType | null;
  content: string;
  resultData?: Record<string, unknown> | null;
  /** A new version of a question (src/chat/versions.ts). */
  versionGroup?: number | null;
  version?: number | null;
};

/** The caller's conversation, or undefined: another user's conversation reads exactly like a missing one. */
/**
 * Locks the user's conversation until the transaction ends (PostgreSQL's
 * FOR UPDATE; SQLite's transaction already holds the only writer): the claim
 * of a run and the deletion of its conversation take this lock first, so one
 * waits for the other and then sees what it did. False when it is gone.
 */
export async function lockOwnedConversation(tx: Db, id: number, userId: number): Promise<boolean> {
  const row = await first(
    forUpdate(
      tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.id, id), eq(conversations.userId, userId))),
    ),
  );
  return row !== undefined;
}

export async function findOwnedConversation(db: Db, id: number, userId: number): Promise<ConversationRow | undefined> {
  return await first(
    db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.userId, userId))),
  );
}

export async function insertConversation(db: Db, userId: number, title: string, now: Date, source: ConversationSource = "web"): Promise<ConversationRow> {
  return await one(db.insert(conversations).values({ userId, title, source, messageCount: 0, createdAt: now, updatedAt: now }).returning());
}

/** Appends messages and keeps message_count / updated_at in step; call inside a transaction. */
export async function appendMessages(db: Db, conversationId: number, rows: NewMessage[], now: Date): Promise<MessageRow[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(messages)
    .values(rows.map((r) => ({ conversationId, ...r, resultData: r.resultData ?? null, createdAt: now })))
    .returning();
  await db
    .update(conversations)
    .set({ messageCount: sql`${conversations.messageCount} + ${rows.length}`, updatedAt: now })
    .where(eq(conversations.id, conversationId));
  return inserted;
}

/** The conversation as shown: each question in its shown version only (earlier versions are `superseded`, src/chat/versions.ts). */
export async function listMessages(db: Db, conversationId: number): Promise<MessageRow[]> {
  return await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.superseded, false)))
    .orderBy(asc(messages.id));
}

/** A conversation's shown messages after `afterId`, oldest first, `limit` at most (exports read a long conversation in pages). */
export async function messagePage(db: Db, conversationId: number, afterId: number, limit: number): Promise<MessageRow[]> {
  return await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.id, afterId), eq(messages.superseded, false)))
    .orderBy(asc(messages.id))
    .limit(limit);
}

export async function findMessage(db: Db, id: number): Promise<MessageRow | undefined> {
  return await first(db.select().from(messages).where(eq(messages.id, id)));
}

/** Deletes the caller's conversation (messages and runs go with it, by cascade); false when not theirs. */
export async function deleteOwnedConversation(db: Db, id: number, userId: number): Promise<boolean> {
  const gone = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return gone.length > 0;
}

/** Renames the caller's conversation, without moving it in the history (updated_at unchanged); false when not theirs. */
export async function renameOwnedConversation(db: Db, id: number, userId: number, title: string): Promise<boolean> {
  const done = await db
    .update(conversations)
    .set({ title })
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return done.length > 0;
}
