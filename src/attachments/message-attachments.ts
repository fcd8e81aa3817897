import type { MessageRow } from "../chat/chat.queries.ts";
import { type PublicMessage, toPublicMessage } from "../chat/chat.view.ts";
import { versionQuestionIds } from "../chat/versions.queries.ts";
import type { Db } from "../db/client.ts";
import { type AttachmentInfo, attachmentsOfMessages } from "./attachments.queries.ts";
import { type PublicAttachment, toPublicAttachment } from "./attachments.service.ts";

/**
 * The files of these messages' questions, by message id (a message without
 * files is not in the map). A file is linked to the message it was sent with
 * (attachments.message_id); « Modifier » and « Nouvelle réponse » make a new
 * version of that question (src/chat/versions.ts) without copying or moving
 * its files, so a version's question has the files of its group's first
 * question, whose id is the group (`version_group`). Only the question of a
 * version has them, not the user's replies to a clarification tagged with
 * the same version. The files stay owned, counted, exported and deleted once.
 */
export async function attachmentsOfQuestions(db: Db, rows: readonly MessageRow[]): Promise<Map<number, AttachmentInfo[]>> {
  const users = rows.filter((m) => m.sender === "user");
  const later = users.filter((m) => m.versionGroup !== null && m.versionGroup !== m.id);
  const questions = await versionQuestionIds(
    db,
    later.map((m) => m.versionGroup!),
  );
  const linkedTo = new Map(users.map((m) => [m.id, later.includes(m) && questions.has(m.id) ? m.versionGroup! : m.id]));
  const files = await attachmentsOfMessages(db, [...new Set(linkedTo.values())]);
  const byMessage = new Map<number, AttachmentInfo[]>();
  for (const [message, linked] of linkedTo) {
    const own = files.filter((f) => f.messageId === linked);
    if (own.length > 0) byMessage.set(message, own);
  }
  return byMessage;
}

/**
 * Messages as the API shows them, each user message that came with files
 * carrying `attachments: [{ id, name, kind, mime, size, ... }]` (one query
 * for the whole list; a message without files has no such key).
 */
export async function withAttachments(db: Db, rows: readonly MessageRow[]): Promise<Array<PublicMessage & { attachments?: PublicAttachment[] }>> {
  const byMessage = await attachmentsOfQuestions(db, rows);
  return rows.map((m) => {
    const files = byMessage.get(m.id);
    return files ? { ...toPublicMessage(m), attachments: files.map(toPublicAttachment) } : toPublicMessage(m);
  });
}
