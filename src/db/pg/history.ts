import { type SQL, sql } from "drizzle-orm";
import { FIRST_MESSAGE_PREVIEW, type HistoryCursor, type HistoryRow } from "../sqlite/history.ts";
import { pgRows } from "./rows.ts";

/**
 * PostgreSQL's history list and search (the SQLite versions and what they
 * promise: src/db/sqlite/history.ts). Times come back as milliseconds, as
 * SQLite stores them, so the cursor is the same on both.
 */

const columns = sql.raw(`c.id AS "id", c.title AS "title", c.message_count AS "messageCount", c.source AS "source",
  (extract(epoch FROM c.updated_at) * 1000)::float8 AS "updatedAt",
  (SELECT substr(m.content, 1, ${FIRST_MESSAGE_PREVIEW}) FROM messages m
   WHERE m.conversation_id = c.id AND m.sender = 'user' AND NOT m.superseded ORDER BY m.id LIMIT 1) AS "firstMessage",
  (SELECT count(*)::int FROM messages m JOIN attachments a ON a.message_id = m.id
   WHERE m.conversation_id = c.id AND m.sender = 'user' AND NOT m.superseded) AS "attachmentCount"`);

const rows = (db: unknown, q: SQL) => pgRows<HistoryRow>(db, q);

/** One page, newest first, keyset on (updated_at, id) as on SQLite (index conversations_user_updated_idx). */
export async function pgHistoryPage(
  db: unknown,
  userId: number,
  limit: number,
  after?: HistoryCursor,
): Promise<{ rows: HistoryRow[]; next: HistoryCursor | null }> {
  const found = await rows(
    db,
    after
      ? sql`SELECT ${columns} FROM conversations c
            WHERE c.user_id = ${userId} AND (c.updated_at, c.id) < (to_timestamp(${after.updatedAt}::float8 / 1000), ${after.id})
            ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit + 1}`
      : sql`SELECT ${columns} FROM conversations c WHERE c.user_id = ${userId} ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit + 1}`,
  );
  if (found.length <= limit) return { rows: found, next: null };
  found.length = limit;
  const last = found[limit - 1]!;
  return { rows: found, next: { updatedAt: last.updatedAt, id: last.id } };
}

/**
 * The conversations holding every word somewhere in their messages, best
 * first: per word, the messages matching its French prefix query
 * (to_tsquery('french', 'mot:*'): stemmed, then any word starting so, close
 * to SQLite's prefix queries; accents folded on both sides, as SQLite's
 * remove_diacritics) grouped by conversation with their best
 * ts_rank; the conversations in every group, by the sum of those ranks. A
 * stop word ("les") gives an empty query, which narrows nothing rather than
 * finding nothing.
 */
export async function pgSearchConversations(db: unknown, userId: number, words: string[], limit: number): Promise<HistoryRow[]> {
  if (words.length === 0) return [];
  const perWord = words.map((w, i) => {
    // Folded by the function the indexed column uses (pg migration 0003: case and accents). Lower-cased here too: a
    // C-locale cluster lower-cases ASCII only, and the function folds only the accented letters it lists (« Œ » stays).
    const q = sql`to_tsquery('french', unisson_search_fold(${w.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase()}) || ':*')`;
    return sql`${sql.raw(`w${i}`)} AS (SELECT m.conversation_id AS cid, max(ts_rank(m.search_vector, ${q})) AS score
        FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.user_id = ${userId} AND (numnode(${q}) = 0 OR m.search_vector @@ ${q}) GROUP BY m.conversation_id)`;
  });
  const joins = sql.raw(
    words
      .slice(1)
      .map((_, i) => `JOIN w${i + 1} ON w${i + 1}.cid = w0.cid`)
      .join(" "),
  );
  const score = sql.raw(words.map((_, i) => `w${i}.score`).join(" + "));
  return rows(
    db,
    sql`WITH ${sql.join(perWord, sql`, `)}
        SELECT ${columns} FROM w0 ${joins} JOIN conversations c ON c.id = w0.cid
        WHERE c.user_id = ${userId}
        ORDER BY ${score} DESC, c.updated_at DESC, c.id DESC LIMIT ${limit}`,
  );
}
