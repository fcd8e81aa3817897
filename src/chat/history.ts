import type { Deps } from "../deps.ts";
import { sharedConversationIds } from "../sharing/sharing.queries.ts";
import { type HistoryCursor, type HistoryRow, historyPage, searchConversations, searchWords } from "./history.queries.ts";

export type HistoryInput = { limit: number; cursor?: string; q?: string };

/** The cursor a client sends back: "<updated_at ms>.<id>" of the last row it holds. */
function parseCursor(cursor: string | undefined): HistoryCursor | undefined {
  if (!cursor) return undefined;
  const [updatedAt, id] = cursor.split(".").map(Number);
  return { updatedAt: updatedAt!, id: id! };
}

function toSummary(c: HistoryRow, shared: Set<number>) {
  return {
    id: c.id,
    title: c.title,
    first_message: c.firstMessage ?? "",
    message_count: c.messageCount,
    /** Files sent with the conversation's questions (issue 33). */
    attachment_count: c.attachmentCount,
    source: c.source,
    updated_at: new Date(c.updatedAt).toISOString(),
    /** At least one live read-only link (src/sharing). */
    shared: shared.has(c.id),
  };
}

/**
 * GET /history. A list page carries next_cursor (null on the last page). A
 * search answers its best `limit` matches in rank order, with no cursor: a
 * rank is no stable key to page on, and a longer search is a better search.
 */
export async function history(deps: Deps, userId: number, input: HistoryInput) {
  if (input.q) {
    const rows = await searchConversations(deps.db, userId, searchWords(input.q), input.limit);
    return { conversations: await summaries(deps, userId, rows), next_cursor: null };
  }
  const page = await historyPage(deps.db, userId, input.limit, parseCursor(input.cursor));
  return {
    conversations: await summaries(deps, userId, page.rows),
    next_cursor: page.next ? `${page.next.updatedAt}.${page.next.id}` : null,
  };
}

async function summaries(deps: Deps, userId: number, rows: HistoryRow[]) {
  const shared = await sharedConversationIds(
    deps.db,
    userId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toSummary(r, shared));
}
