import { type Db, onConnection } from "../client.ts";

/** One of the users who used most tokens. */
export type TopUser = { user_id: number; email: string | null; tokens_in: number; tokens_out: number; answers: number };

/**
 * The rows of the usage report (src/admin/usage-report.ts) since `since`
 * (ms), in SQLite's SQL (strftime days, boolean sums): answers and spend per
 * day, every real call, the top users, the probes' spend.
 */
export async function usageRows(db: Db, since: number, topUsers: number) {
  return onConnection(db, (sqlite) => {
    const answers = sqlite
      .query(
        `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day,
                sum(status = 'done') AS answers, sum(status = 'failed') AS failed
           FROM processing_runs WHERE created_at >= ? GROUP BY day ORDER BY day`,
      )
      .all(since) as Array<{ day: string; answers: number; failed: number }>;
    const spend = sqlite
      .query(
        `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, coalesce(sum(cost_eur), 0) AS eur
           FROM ai_calls WHERE created_at >= ? AND purpose <> 'probe' GROUP BY day`,
      )
      .all(since) as Array<{ day: string; eur: number }>;
    const calls = sqlite
      .query(
        "SELECT model, outcome, latency_ms AS ms, tokens_in AS i, tokens_out AS o, cost_eur AS eur FROM ai_calls WHERE created_at >= ? AND purpose <> 'probe'",
      )
      .all(since) as Array<{ model: string; outcome: string; ms: number; i: number | null; o: number | null; eur: number | null }>;
    const top = sqlite
      .query(
        `SELECT t.user_id, u.email, t.tokens_in, t.tokens_out,
                (SELECT count(*) FROM processing_runs r WHERE r.user_id = t.user_id AND r.status = 'done' AND r.created_at >= ?) AS answers
           FROM (SELECT user_id, sum(coalesce(tokens_in, 0)) AS tokens_in, sum(coalesce(tokens_out, 0)) AS tokens_out
                   FROM ai_calls WHERE created_at >= ? AND user_id IS NOT NULL AND purpose <> 'probe' GROUP BY user_id) t
           LEFT JOIN users u ON u.id = t.user_id
          ORDER BY t.tokens_in + t.tokens_out DESC, t.user_id LIMIT ?`,
      )
      .all(since, since, topUsers) as TopUser[];

    const probes = sqlite.query("SELECT coalesce(sum(cost_eur), 0) AS eur FROM ai_calls WHERE created_at >= ? AND purpose = 'probe'").get(since) as {
      eur: number;
    };
    return { answers, spend, calls, top, probes };
  });
}
