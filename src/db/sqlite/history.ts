import { type Db, onConnection } from "../client.ts";

/**
 * The history list and its search, in SQLite's own SQL (FTS5 MATCH, bm25,
 * the row-value keyset comparison): a database server gets its own version
 * of these two functions beside this file.
 */

/** How much of the first message the history list carries: the list shows a preview, not the question. */
export const FIRST_MESSAGE_PREVIEW = 300;

export type HistoryRow = {
  id: number;
  title: string;
  messageCount: number;
  /** "api" when asked through /v1 with a personal key, else "web". */
  source: string;
  updatedAt: number;
  firstMessage: string | null;
  /** Files sent with its messages (through messages: attachments are indexed by message). */
  attachmentCount: number;
};

/** Where the previous page stopped: the last row's (updated_at, id). */
export type HistoryCursor = { updatedAt: number; id: number };

// Plain SQL: FTS5 MATCH, bm25 and the row-value keyset comparison have no drizzle spelling.
const columns = `c.id AS id, c.title AS title, c.message_count AS messageCount, c.source AS source, c.updated_at AS updatedAt,
  (SELECT substr(m.content, 1, ${FIRST_MESSAGE_PREVIEW}) FROM messages m
   WHERE m.conversation_id = c.id AND m.sender = 'user' AND m.superseded = 0 ORDER BY m.id LIMIT 1) AS firstMessage,
  (SELECT count(*) FROM messages m JOIN attachments a ON a.message_id = m.id
   WHERE m.conversation_id = c.id AND m.sender = 'user' AND m.superseded = 0) AS attachmentCount`;

/**
 * One page of the history, newest first. Keyset on (updated_at, id): the index
 * conversations_user_updated_idx (user_id, updated_at) carries the rowid `id`
 * as its last key, so each page is one index range, never an OFFSET scan.
 * Reads limit + 1 rows to know whether another page follows.
 */
export async function historyPage(db: Db, userId: number, limit: number, after?: HistoryCursor): Promise<{ rows: HistoryRow[]; next: HistoryCursor | null }> {
  const rows = await onConnection(db, (sqlite) =>
    after
      ? (sqlite
          .query(
            `SELECT ${columns} FROM conversations c
           WHERE c.user_id = ?1 AND (c.updated_at, c.id) < (?2, ?3)
           ORDER BY c.updated_at DESC, c.id DESC LIMIT ?4`,
          )
          .all(userId, after.updatedAt, after.id, limit + 1) as HistoryRow[])
      : (sqlite
          .query(`SELECT ${columns} FROM conversations c WHERE c.user_id = ?1 ORDER BY c.updated_at DESC, c.id DESC LIMIT ?2`)
          .all(userId, limit + 1) as HistoryRow[]),
  );
  if (rows.length <= limit) return { rows, next: null };
  rows.length = limit;
  const last = rows[limit - 1]!;
  return { rows, next: { updatedAt: last.updatedAt, id: last.id } };
}

/**
 * The user's conversations that hold every word of the query somewhere in
 * their messages (a word of the question and one of the answer together
 * find it; the title is the first question's start), best match first.
 * One FTS5 query per word, whose matches are grouped by conversation; the
 * conversations in every group are the hits, ranked by the sum of each
 * word's best bm25 (only the text column weighs). The owner term keeps FTS5
 * inside the user's own rows. Each word is a prefix query: FTS5 has no French
 * stemmer, and a prefix catches plurals and most inflections ("région"
 * finds "régions").
 */
export async function searchConversations(db: Db, userId: number, words: string[], limit: number): Promise<HistoryRow[]> {
  if (words.length === 0) return [];
  const matches = words.map((w) => `owner:u${userId} AND body:"${w.replaceAll('"', '""')}"*`);
  // bm25 is only readable in the query that runs MATCH: each word's scores are materialised first.
  const perWord = matches.map(
    (_, i) => `m${i} AS MATERIALIZED (SELECT rowid AS mid, bm25(chat_search, 0.0, 1.0) AS score FROM chat_search WHERE chat_search MATCH ?${i + 3}),
       w${i} AS MATERIALIZED (SELECT m.conversation_id AS cid, min(m${i}.score) AS score FROM m${i} JOIN messages m ON m.id = m${i}.mid GROUP BY m.conversation_id)`,
  );
  const joins = matches
    .slice(1)
    .map((_, i) => `JOIN w${i + 1} ON w${i + 1}.cid = w0.cid`)
    .join(" ");
  const score = matches.map((_, i) => `w${i}.score`).join(" + ");
  return onConnection(
    db,
    (sqlite) =>
      sqlite
        .query(
          `WITH ${perWord.join(",\n       ")}
       SELECT ${columns} FROM w0 ${joins} JOIN conversations c ON c.id = w0.cid
       WHERE c.user_id = ?1
       ORDER BY ${score}, c.updated_at DESC, c.id DESC LIMIT ?2`,
        )
        .all(userId, limit, ...matches) as HistoryRow[],
  );
}
