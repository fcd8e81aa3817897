export { type HistoryCursor, type HistoryRow, historyPage, searchConversations } from "../db/history.ts";

/**
 * The words of a search box: runs of letters and digits, at most 8, each at
 * most 40 characters. A lone letter (the "l" of "l'économie") is dropped: as
 * a prefix it would match half the vocabulary and narrow nothing.
 */
export function searchWords(q: string): string[] {
  const words = q.normalize("NFC").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((w) => w.length > 1 || /\p{N}/u.test(w))
    .slice(0, 8)
    .map((w) => w.slice(0, 40));
}
