import { and, asc, count, eq, inArray, isNull, lt, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { attachments } from "../db/schema/index.ts";
import { first, one } from "../db/transaction.ts";

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;

/** Every column but the bytes: what lists, prompts and views need. */
const described = {
  id: attachments.id,
  userId: attachments.userId,
  conversationId: attachments.conversationId,
  messageId: attachments.messageId,
  name: attachments.name,
  kind: attachments.kind,
  mime: attachments.mime,
  size: attachments.size,
  text: attachments.text,
  pages: attachments.pages,
  width: attachments.width,
  height: attachments.height,
  createdAt: attachments.createdAt,
};
export type AttachmentInfo = Pick<AttachmentRow, keyof typeof described>;

export async function insertAttachment(db: Db, row: NewAttachment): Promise<AttachmentInfo> {
  return await one(db.insert(attachments).values(row).returning(described));
}

/** The owner's attachment with its bytes, or undefined: another user's reads like a missing one. */
export async function findOwnedAttachment(db: Db, id: number, userId: number): Promise<AttachmentRow | undefined> {
  return await first(
    db
      .select()
      .from(attachments)
      .where(and(eq(attachments.id, id), eq(attachments.userId, userId))),
  );
}

/** Of these ids, those the user uploaded and has not sent yet. */
export async function unsentOwned(db: Db, ids: readonly number[], userId: number): Promise<AttachmentInfo[]> {
  if (ids.length === 0) return [];
  return await db
    .select(described)
    .from(attachments)
    .where(and(inArray(attachments.id, [...ids]), eq(attachments.userId, userId), isNull(attachments.messageId)));
}

/** Ties uploads to the message they were sent with; only those still unsent (a second send of the same id fails: fewer rows). */
export async function attachToMessage(db: Db, ids: readonly number[], userId: number, conversationId: number, messageId: number): Promise<number> {
  if (ids.length === 0) return 0;
  const done = await db
    .update(attachments)
    .set({ conversationId, messageId })
    .where(and(inArray(attachments.id, [...ids]), eq(attachments.userId, userId), isNull(attachments.messageId)))
    .returning({ id: attachments.id });
  return done.length;
}

/** The attachments of these messages, oldest first, without their bytes. */
export async function attachmentsOfMessages(db: Db, messageIds: readonly number[]): Promise<AttachmentInfo[]> {
  if (messageIds.length === 0) return [];
  return await db
    .select(described)
    .from(attachments)
    .where(inArray(attachments.messageId, [...messageIds]))
    .orderBy(asc(attachments.id));
}

/** The pictures the vision models get, by attachment id. */
export async function modelImages(db: Db, ids: readonly number[]): Promise<Array<{ id: number; mime: string; kind: string; image: Buffer | null }>> {
  if (ids.length === 0) return [];
  return await db
    .select({ id: attachments.id, mime: attachments.mime, kind: attachments.kind, image: attachments.modelImage })
    .from(attachments)
    .where(inArray(attachments.id, [...ids]));
}

/** Uploads never sent with a message, older than `before` (the page was closed, the message never sent). */
export async function deleteUnsentBefore(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(attachments)
    .where(and(isNull(attachments.messageId), lt(attachments.createdAt, before)))
    .returning({ n: sql`1` });
  return gone.length;
}

/** Files and bytes per user, for the admin's usage views. */
export async function attachmentUsage(db: Db, userIds?: readonly number[]): Promise<Map<number, { files: number; bytes: number }>> {
  const query = db.select({ userId: attachments.userId, files: count(), bytes: sum(attachments.size) }).from(attachments);
  const rows = await (userIds ? query.where(inArray(attachments.userId, [...userIds])) : query).groupBy(attachments.userId);
  return new Map(rows.map((r) => [r.userId, { files: Number(r.files), bytes: Number(r.bytes ?? 0) }]));
}
