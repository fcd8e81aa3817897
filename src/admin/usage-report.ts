import type { Db } from "../db/client.ts";
import { DAY } from "../lib/clock.ts";

export const USAGE_DEFAULT_DAYS = 30;
export const USAGE_MAX_DAYS = 90;
const TOP_USERS = 10;

export type ModelUsage = {
  model: string;
  calls: number;
  ok: number;
  failed: number;
  success_rate: number;
  p50_ms: number | null;
  p95_ms: number | null;
  tokens_in: number;
  tokens_out: number;
};

export type UsageReport = {
  days: number;
  since: string;
  answers_per_day: Array<{ day: string; answers: number; failed: number }>;
  models: ModelUsage[];
  top_users: Array<{ user_id: number; email: string | null; answers: number; tokens_in: number; tokens_out: number }>;
};

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * What the operator reads in `unisson usage` and the admin dashboard, over
 * the last `days` days (UTC): answers per day (final processings done or
 * failed), per model the real calls (probes aside) with success rate, p50/p95
 * latency of the successful ones and tokens, and the users who used most
 * tokens. Everything from processing_runs and ai_calls, nothing estimated.
 */
export function usageReport(db: Db, now: Date, days = USAGE_DEFAULT_DAYS): UsageReport {
  const since = now.getTime() - days * DAY;
  const sqlite = db.$client;
  const answers = sqlite
    .query(
      `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day,
              sum(status = 'done') AS answers, sum(status = 'failed') AS failed
         FROM processing_runs WHERE created_at >= ? GROUP BY day ORDER BY day`,
    )
    .all(since) as Array<{ day: string; answers: number; failed: number }>;

  const calls = sqlite
    .query("SELECT model, outcome, latency_ms AS ms, tokens_in AS i, tokens_out AS o FROM ai_calls WHERE created_at >= ? AND purpose <> 'probe'")
    .all(since) as Array<{ model: string; outcome: string; ms: number; i: number | null; o: number | null }>;
  const byModel = new Map<string, { ok: number[]; failed: number; tokensIn: number; tokensOut: number }>();
  for (const c of calls) {
    const m = byModel.get(c.model) ?? { ok: [], failed: 0, tokensIn: 0, tokensOut: 0 };
    if (c.outcome === "ok") m.ok.push(c.ms);
    else m.failed++;
    m.tokensIn += c.i ?? 0;
    m.tokensOut += c.o ?? 0;
    byModel.set(c.model, m);
  }
  const models = [...byModel.entries()]
    .map(([model, m]) => {
      const sorted = m.ok.sort((a, b) => a - b);
      const total = sorted.length + m.failed;
      return {
        model,
        calls: total,
        ok: sorted.length,
        failed: m.failed,
        success_rate: Math.round((sorted.length / total) * 1000) / 1000,
        p50_ms: percentile(sorted, 50),
        p95_ms: percentile(sorted, 95),
        tokens_in: m.tokensIn,
        tokens_out: m.tokensOut,
      };
    })
    .sort((a, b) => b.calls - a.calls || a.model.localeCompare(b.model));

  const top = sqlite
    .query(
      `SELECT t.user_id, u.email, t.tokens_in, t.tokens_out,
              (SELECT count(*) FROM processing_runs r WHERE r.user_id = t.user_id AND r.status = 'done' AND r.created_at >= ?) AS answers
         FROM (SELECT user_id, sum(coalesce(tokens_in, 0)) AS tokens_in, sum(coalesce(tokens_out, 0)) AS tokens_out
                 FROM ai_calls WHERE created_at >= ? AND user_id IS NOT NULL AND purpose <> 'probe' GROUP BY user_id) t
         LEFT JOIN users u ON u.id = t.user_id
        ORDER BY t.tokens_in + t.tokens_out DESC, t.user_id LIMIT ?`,
    )
    .all(since, since, TOP_USERS) as UsageReport["top_users"];

  return { days, since: new Date(since).toISOString(), answers_per_day: answers, models, top_users: top };
}
