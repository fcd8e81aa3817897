import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, notExists, or, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { attachments, processingRuns, users } from "../db/schema/index.ts";
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

/** The bytes of these attachments that are text files (stored once: their text is decoded from them), by id. */
export async function textFileBytes(db: Db, ids: readonly number[]): Promise<Map<number, Uint8Array>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: attachments.id, data: attachments.data })
    .from(attachments)
    .where(and(inArray(attachments.id, [...ids]), inArray(attachments.kind, ["text", "markdown", "csv"]), isNull(attachments.text)));
  return new Map(rows.map((r) => [r.id, new Uint8Array(r.data)]));
}

/**
 * Files older than `before` that no run ever read: uploads never sent with a
 * message (the page was closed), and files sent with a question whose
 * conversation has no processing run since they came (`/chat` called,
 * `/process` never): both would otherwise be kept, and cost nothing.
 */
export async function deleteUnreadBefore(db: Db, before: Date): Promise<number> {
  return (await unreadBefore(db, before)).length;
}

/**
 * The statement of deleteUnreadBefore. It runs every 10 minutes over every
 * stored file: it reads only `attachments_unread_idx` and, for a sent file,
 * `processing_runs_conversation_idx`, never the rows (on SQLite a scan of the
 * files read every stored byte, 0.12 s a run for 300 MB; the runs' rows, their
 * events, 0.15-0.2 s for 2,000 runs: docs/BENCHMARKS.md, "third round"); a
 * test reads its plan.
 */
export function unreadBefore(db: Db, before: Date) {
  const processed = db
    .select({ n: sql`1` })
    .from(processingRuns)
    .where(and(eq(processingRuns.conversationId, attachments.conversationId), gte(processingRuns.createdAt, attachments.createdAt)));
  return db
    .delete(attachments)
    .where(and(lt(attachments.createdAt, before), or(isNull(attachments.messageId), notExists(processed))))
    .returning({ n: sql`1` });
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

/** The user's attachments after `afterId`, one at a time (one ATTACHMENT_MAX_MB file read, base64-encoded and written per step of the export's stream), for the data export. */
export async function attachmentExportPage(db: Db, userId: number, afterId: number): Promise<AttachmentRow[]> {
  // The next id first, then its row. Whole rows ordered by id made SQLite sort every remaining file of the user,
  // bytes included, at each step (a temporary B-tree: the user's index is on created_at): thirty files of 10 MB were
  // read 465 times over, 0.3-0.9 s of the server's thread a step (docs/BENCHMARKS.md, "Hostile files").
  const next = await first(
    db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(eq(attachments.userId, userId), gt(attachments.id, afterId)))
      .orderBy(asc(attachments.id))
      .limit(1),
  );
  if (!next) return [];
  return await db.select().from(attachments).where(eq(attachments.id, next.id));
}
