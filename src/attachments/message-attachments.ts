import type { MessageRow } from "../chat/chat.queries.ts";
import { type PublicMessage, toPublicMessage } from "../chat/chat.view.ts";
import type { Db } from "../db/client.ts";
import { attachmentsOfMessages } from "./attachments.queries.ts";
import { type PublicAttachment, toPublicAttachment } from "./attachments.service.ts";

/**
 * Messages as the API shows them, each user message that came with files
 * carrying `attachments: [{ id, name, kind, mime, size, ... }]` (one query
 * for the whole list; a message without files has no such key).
 */
export async function withAttachments(db: Db, rows: readonly MessageRow[]): Promise<Array<PublicMessage & { attachments?: PublicAttachment[] }>> {
  const users = rows.filter((m) => m.sender === "user").map((m) => m.id);
  const byMessage = new Map<number, PublicAttachment[]>();
  for (const a of await attachmentsOfMessages(db, users)) {
    const list = byMessage.get(a.messageId!) ?? [];
    list.push(toPublicAttachment(a));
    byMessage.set(a.messageId!, list);
  }
  return rows.map((m) => {
    const files = byMessage.get(m.id);
    return files ? { ...toPublicMessage(m), attachments: files } : toPublicMessage(m);
  });
}
