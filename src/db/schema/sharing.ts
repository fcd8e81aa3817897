import type { chatTables } from "./chat.ts";
import type { Columns } from "./columns.ts";
import type { UserTables } from "./users.ts";

/** What a shared page shows, frozen when the link was made (src/sharing/snapshot.ts writes it). */
export type SharedSnapshot = {
  title: string;
  turns: Array<{
    question: string;
    answer: string | null;
    sources: string[];
    models: Array<{ name: string; answer: string }> | null;
  }>;
};

/**
 * Read-only links to a copy of a conversation. Only the SHA-256 of the
 * token is kept (docs/SECURITY.md, "Shared links"): a copy of the database
 * opens no page. Gone with the conversation and with the account (cascade).
 */
export function sharingTables(c: Columns, { users }: UserTables, { conversations }: Pick<ReturnType<typeof chatTables>, "conversations">) {
  const sharedLinks = c.table(
    "shared_links",
    {
      id: c.id(),
      userId: c
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      conversationId: c
        .int("conversation_id")
        .notNull()
        .references(() => conversations.id, { onDelete: "cascade" }),
      tokenHash: c.text("token_hash").notNull().unique(),
      /** The first characters of the token, to tell links apart in the owner's list. */
      prefix: c.text("prefix").notNull(),
      includeModels: c.flag("include_models").notNull().default(false),
      snapshot: c.json("snapshot").$type<SharedSnapshot>().notNull(),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("shared_links_user_idx").on(t.userId), c.index("shared_links_conversation_idx").on(t.conversationId)],
  );
  return { sharedLinks };
}
