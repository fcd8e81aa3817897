import { sql } from "drizzle-orm";
import type { TopUser } from "../sqlite/usage.ts";
import { pgRows as rows } from "./rows.ts";

/**
 * PostgreSQL's usage rows, the same shapes as SQLite's (src/db/sqlite/usage.ts):
 * days in UTC as YYYY-MM-DD, counts and sums as numbers (float8, since Bun
 * hands bigint and numeric over as strings).
 */
export async function pgUsageRows(db: unknown, sinceMs: number, topUsers: number) {
  const since = new Date(sinceMs).toISOString();
  const day = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`);
  const answers = await rows<{ day: string; answers: number; failed: number }>(
    db,
    sql`SELECT ${day("created_at")} AS day, count(*) FILTER (WHERE status = 'done')::float8 AS answers,
               count(*) FILTER (WHERE status = 'failed')::float8 AS failed
          FROM processing_runs WHERE created_at >= ${since}::timestamptz GROUP BY day ORDER BY day`,
  );
  const spend = await rows<{ day: string; eur: number }>(
    db,
    sql`SELECT ${day("created_at")} AS day, coalesce(sum(cost_eur), 0)::float8 AS eur
          FROM ai_calls WHERE created_at >= ${since}::timestamptz AND purpose <> 'probe' GROUP BY day`,
  );
  const calls = await rows<{ model: string; outcome: string; ms: number; i: number | null; o: number | null; eur: number | null }>(
    db,
    sql`SELECT model, outcome, latency_ms AS ms, tokens_in AS i, tokens_out AS o, cost_eur::float8 AS eur
          FROM ai_calls WHERE created_at >= ${since}::timestamptz AND purpose <> 'probe'`,
  );
  const top = await rows<TopUser>(
    db,
    sql`SELECT t.user_id, u.email, t.tokens_in, t.tokens_out,
               (SELECT count(*) FROM processing_runs r WHERE r.user_id = t.user_id AND r.status = 'done' AND r.created_at >= ${since}::timestamptz)::float8 AS answers
          FROM (SELECT user_id, sum(coalesce(tokens_in, 0))::float8 AS tokens_in, sum(coalesce(tokens_out, 0))::float8 AS tokens_out
                  FROM ai_calls WHERE created_at >= ${since}::timestamptz AND user_id IS NOT NULL AND purpose <> 'probe' GROUP BY user_id) t
          LEFT JOIN users u ON u.id = t.user_id
         ORDER BY t.tokens_in + t.tokens_out DESC, t.user_id LIMIT ${topUsers}`,
  );
  const [probes] = await rows<{ eur: number }>(
    db,
    sql`SELECT coalesce(sum(cost_eur), 0)::float8 AS eur FROM ai_calls WHERE created_at >= ${since}::timestamptz AND purpose = 'probe'`,
  );
  return { answers, spend, calls, top, probes: probes! };
}
