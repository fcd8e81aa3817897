import type { Columns } from "./columns.ts";
import type { UserTables } from "./users.ts";

export function supportTables(c: Columns, { users }: UserTables) {
  const contactMessages = c.table(
    "contact_messages",
    {
      id: c.id(),
      userId: c.int("user_id").references(() => users.id, { onDelete: "set null" }),
      name: c.text("name").notNull(),
      email: c.text("email").notNull(),
      subject: c.text("subject").notNull(),
      message: c.text("message").notNull(),
      ip: c.text("ip"),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("contact_messages_created_idx").on(t.createdAt)],
  );

  /** Every mail the product sends; without SMTP_URL this is the outbox the CLI lists. */
  const mailOutbox = c.table(
    "mail_outbox",
    {
      id: c.id(),
      to: c.text("to").notNull(),
      subject: c.text("subject").notNull(),
      text: c.text("text").notNull(),
      html: c.text("html"),
      kind: c.text("kind").notNull(),
      status: c.text("status", { enum: ["outbox", "sent", "failed"] }).notNull(),
      error: c.text("error"),
      createdAt: c.timestamp("created_at").notNull(),
      sentAt: c.timestamp("sent_at"),
    },
    (t) => [c.index("mail_outbox_created_idx").on(t.createdAt)],
  );

  return { contactMessages, mailOutbox };
}
