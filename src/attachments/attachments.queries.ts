import { and, asc, count, desc, eq, gt, inArray, isNull, lt, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { attachments, users } from "../db/schema/index.ts";
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

/** Files and bytes stored per user, the users who store most first (`limit` of them), and the totals: for `unisson usage` and the admin's usage. */
export async function attachmentStorage(db: Db, limit: number) {
  const bytes = sum(attachments.size).mapWith(Number);
  const perUser = await db
    .select({ userId: attachments.userId, email: users.email, files: count(), bytes })
    .from(attachments)
    .leftJoin(users, eq(users.id, attachments.userId))
    .groupBy(attachments.userId, users.email)
    .orderBy(desc(bytes), asc(attachments.userId))
    .limit(limit);
  const [total] = await db.select({ files: count(), bytes }).from(attachments);
  return { files: Number(total?.files ?? 0), bytes: Number(total?.bytes ?? 0), perUser };
}

/** The user's attachments after `afterId`, two at a time (up to 2 × ATTACHMENT_MAX_MB in memory), for the data export. */
export async function attachmentExportPage(db: Db, userId: number, afterId: number): Promise<AttachmentRow[]> {
  return await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.userId, userId), gt(attachments.id, afterId)))
    .orderBy(asc(attachments.id))
    .limit(2);
}
