import { type Db, dialectOf } from "./client.ts";
import { pgHistoryPage, pgSearchConversations } from "./pg/history.ts";
import * as lite from "./sqlite/history.ts";

export type { HistoryCursor, HistoryRow } from "./sqlite/history.ts";

/** The history list and its search on whichever database the handle talks to (sqlite/history.ts, pg/history.ts). */
export function historyPage(db: Db, userId: number, limit: number, after?: lite.HistoryCursor) {
  return dialectOf(db) === "postgres" ? pgHistoryPage(db, userId, limit, after) : lite.historyPage(db, userId, limit, after);
}

export function searchConversations(db: Db, userId: number, words: string[], limit: number): Promise<lite.HistoryRow[]> {
  return dialectOf(db) === "postgres" ? pgSearchConversations(db, userId, words, limit) : lite.searchConversations(db, userId, words, limit);
}
