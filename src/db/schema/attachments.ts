import type { chatTables } from "./chat.ts";
import type { Columns } from "./columns.ts";
import type { UserTables } from "./users.ts";

/** What an attachment is, read from its bytes (src/attachments/detect.ts); the page shows it on the chip. */
export const ATTACHMENT_KINDS = ["pdf", "docx", "text", "markdown", "csv", "png", "jpeg", "webp", "gif"] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/**
 * Files a user gave with a question (issue 33), stored in the database so
 * that every server of a PostgreSQL deployment serves them. Owned by one
 * user; tied to the conversation and the message once sent. Gone with the
 * account and with the conversation (cascade); a file no run read (never
 * sent, or its question never processed) is deleted within the hour
 * (src/jobs/cleanup.job.ts).
 */
export function attachmentTables(
  c: Columns,
  { users }: UserTables,
  { conversations, messages }: Pick<ReturnType<typeof chatTables>, "conversations" | "messages">,
) {
  const attachments = c.table(
    "attachments",
    {
      id: c.id(),
      userId: c
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      conversationId: c.int("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
      messageId: c.int("message_id").references(() => messages.id, { onDelete: "cascade" }),
      /** The file's name as the user gave it (shown, never used as a path). */
      name: c.text("name").notNull(),
      kind: c.text("kind", { enum: ATTACHMENT_KINDS }).notNull(),
      mime: c.text("mime").notNull(),
      /** Bytes of the original file. */
      size: c.int("size").notNull(),
      /** Pages of the document (PDF), whether or not all were read; null otherwise. */
      pages: c.int("pages"),
      width: c.int("width"),
      height: c.int("height"),
      createdAt: c.timestamp("created_at").notNull(),
      // The large values come last, smallest first: SQLite keeps a row's values one after the other, a large one in
      // a chain of overflow pages, so reading a column placed after a 10 MB file read the 10 MB (the cleanup's scan
      // read every stored byte; a thumbnail, its whole picture). Migration 0014 put them in this order.
      /** The text extracted at upload, pages separated by a form feed (\f); null for an image, and for a text file (stored once, as `data`). */
      text: c.text("text"),
      /** Images: a small preview for the chip and the conversation. */
      thumbnail: c.bytes("thumbnail"),
      /** Images: the picture the vision models get (long side ≤ 1568 px, JPEG or PNG). */
      modelImage: c.bytes("model_image"),
      /** The original file, served back to its owner. */
      data: c.bytes("data").notNull(),
    },
    (t) => [
      c.index("attachments_user_idx").on(t.userId, t.createdAt),
      c.index("attachments_message_idx").on(t.messageId),
      // The cleanup's scan (deleteUnreadBefore) reads these three only: from the index, never the rows.
      c.index("attachments_unread_idx").on(t.createdAt, t.messageId, t.conversationId),
    ],
  );
  return { attachments };
}
