import type { Db } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { listMessages, type MessageRow } from "./chat.queries.ts";
import { withAttachments } from "../attachments/message-attachments.ts";
import { versionCounts } from "./versions.queries.ts";

/** The conversation as the page shows it: each question in its shown version (src/chat/versions.ts), and the switcher's figures. */

export type VersionInfo = { message_id: number; group: number; version: number; count: number };

/** The versions of the shown questions that have more than one, for the switcher. */
export async function versionsOf(db: Db, conversationId: number, shown: readonly MessageRow[]): Promise<VersionInfo[]> {
  const counts = await versionCounts(db, conversationId);
  return shown.flatMap((m) => {
    const count = m.versionGroup === null ? 0 : (counts.get(m.versionGroup) ?? 0);
    return m.sender === "user" && count > 1 ? [{ message_id: m.id, group: m.versionGroup!, version: m.version ?? 1, count }] : [];
  });
}

/** The conversation as shown (each question in its shown version) and its versions. */
export async function shownConversation(deps: Deps, conversationId: number) {
  const shown = await listMessages(deps.db, conversationId);
  return { messages: await withAttachments(deps.db, shown), versions: await versionsOf(deps.db, conversationId, shown) };
}
