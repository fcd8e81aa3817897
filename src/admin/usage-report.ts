import { aiCosts, roundEur } from "../ai/costs.ts";
import type { Db } from "../db/client.ts";
import { usageRows } from "../db/usage.ts";
import { DAY } from "../lib/clock.ts";
import { attachmentStorage } from "../attachments/attachments.queries.ts";
import { type WebUsage, webUsage } from "../web-search/web-usage.ts";

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
  /** What these calls cost (ai_calls.cost_eur), euros. */
  eur: number;
};

export type UsageReport = {
  days: number;
  since: string;
  /** Per UTC day: answers, failed runs, and what the day's real calls cost (probes aside, as everywhere in this report). */
  answers_per_day: Array<{ day: string; answers: number; failed: number; eur: number }>;
  models: ModelUsage[];
  /** The window's spend: every call (the same total as /api/admin/ai-costs) = the days (or the models) + the probes; the average answer. */
  spend: { total_eur: number; probes_eur: number; average_per_answer_eur: number };
  top_users: Array<{ user_id: number; email: string | null; answers: number; tokens_in: number; tokens_out: number }>;
  /** Attachments stored now (not only in the window): files and megabytes, in all and for the users who store most. */
  attachments: { files: number; megabytes: number; users: Array<{ user_id: number; email: string | null; files: number; megabytes: number }> };
  /** The council's web searches and page reads (issue 45), per day and for the users who search most. */
  web_search: WebUsage;
};

const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 100) / 100;

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
 * tokens, and what it cost (ai_calls.cost_eur: per day and per model the
 * real calls, the probes apart; total and average from aiCosts, so both
 * reports agree). Everything from processing_runs and ai_calls, nothing estimated.
 */
export async function usageReport(db: Db, now: Date, days = USAGE_DEFAULT_DAYS): Promise<UsageReport> {
  const since = now.getTime() - days * DAY;
  const { answers, spend, calls, top, probes } = await usageRows(db, since, TOP_USERS);
  const perDay = new Map(answers.map((a) => [a.day, { ...a, eur: 0 }]));
  // A day with calls but no run (a clarification, a run begun the day before) still has its spend.
  for (const d of spend) perDay.set(d.day, { ...(perDay.get(d.day) ?? { day: d.day, answers: 0, failed: 0 }), eur: roundEur(d.eur) });

  const byModel = new Map<string, { ok: number[]; failed: number; tokensIn: number; tokensOut: number; eur: number }>();
  for (const c of calls) {
    const m = byModel.get(c.model) ?? { ok: [], failed: 0, tokensIn: 0, tokensOut: 0, eur: 0 };
    if (c.outcome === "ok") m.ok.push(c.ms);
    else m.failed++;
    m.tokensIn += c.i ?? 0;
    m.tokensOut += c.o ?? 0;
    m.eur += c.eur ?? 0;
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
        eur: roundEur(m.eur),
      };
    })
    .sort((a, b) => b.calls - a.calls || a.model.localeCompare(b.model));

  const costs = await aiCosts(db, now, days);
  const stored = await attachmentStorage(db, TOP_USERS);
  const web = await webUsage(db, new Date(since), TOP_USERS);
  return {
    days,
    since: new Date(since).toISOString(),
    answers_per_day: [...perDay.values()].sort((a, b) => a.day.localeCompare(b.day)),
    models,
    spend: { total_eur: costs.total_eur, probes_eur: roundEur(probes.eur), average_per_answer_eur: costs.average_per_answer_eur },
    top_users: top,
    attachments: {
      files: stored.files,
      megabytes: megabytes(stored.bytes),
      users: stored.perUser.map((u) => ({ user_id: u.userId, email: u.email, files: Number(u.files), megabytes: megabytes(u.bytes) })),
    },
    web_search: web,
  };
}
