import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type ConversationSource, conversations, type MessageType, messages } from "../db/schema/index.ts";

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = {
  sender: "user" | "assistant";
  messageType: MessageType | null;
  content: string;
  resultData?: Record<string, unknown> | null;
};

/** The caller's conversation, or undefined: another user's conversation reads exactly like a missing one. */
export function findOwnedConversation(db: Db, id: number, userId: number): ConversationRow | undefined {
  return db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .get();
}

export function insertConversation(db: Db, userId: number, title: string, now: Date, source: ConversationSource = "web"): ConversationRow {
  return db.insert(conversations).values({ userId, title, source, messageCount: 0, createdAt: now, updatedAt: now }).returning().get();
}

/** Appends messages and keeps message_count / updated_at in step; call inside a transaction. */
export function appendMessages(db: Db, conversationId: number, rows: NewMessage[], now: Date): MessageRow[] {
  if (rows.length === 0) return [];
  const inserted = db
    .insert(messages)
    .values(rows.map((r) => ({ conversationId, ...r, resultData: r.resultData ?? null, createdAt: now })))
    .returning()
    .all();
  db.update(conversations)
    .set({ messageCount: sql`${conversations.messageCount} + ${rows.length}`, updatedAt: now })
    .where(eq(conversations.id, conversationId))
    .run();
  return inserted;
}

export function listMessages(db: Db, conversationId: number): MessageRow[] {
  return db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.id)).all();
}

export function findMessage(db: Db, id: number): MessageRow | undefined {
  return db.select().from(messages).where(eq(messages.id, id)).get();
}

/** Deletes the caller's conversation (messages and runs go with it, by cascade); false when not theirs. */
export function deleteOwnedConversation(db: Db, id: number, userId: number): boolean {
  const gone = db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id })
    .all();
  return gone.length > 0;
}
