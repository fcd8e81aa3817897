import { first } from "../db/transaction.ts";
import { utcDay } from "../db/portable-sql.ts";
import { and, count, eq, gte, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { aiCalls, processingRuns } from "../db/schema/index.ts";

const DAY = 86_400_000;

export type AiCosts = {
  days: number;
  /** Every AI call of the window (answers, peer reviews, syntheses, clarifications, probes), euros. */
  total_eur: number;
  spend_by_day: Array<{ day: string; eur: number }>;
  spend_by_model: Array<{ model: string; calls: number; eur: number }>;
  answers: number;
  /** Answer, peer review and synthesis calls of the window divided by the answers stored in it. */
  average_per_answer_eur: number;
};

/** Euros to four decimals: an AI call costs fractions of a cent. */
export const roundEur = (n: number) => Math.round(n * 10_000) / 10_000;

/** What the AI calls cost over the last `days` days, from ai_calls.cost_eur (the price table at call time). */
export async function aiCosts(db: Db, now: Date, days = 30): Promise<AiCosts> {
  const since = new Date(now.getTime() - days * DAY);
  const inWindow = gte(aiCalls.createdAt, since);
  const eur = sql<number>`coalesce(sum(${aiCalls.costEur}), 0)`;
  const day = utcDay(db, aiCalls.createdAt);
  const byDay = await db.select({ day, eur }).from(aiCalls).where(inWindow).groupBy(sql`1`).orderBy(sql`1`);
  const byModel = await db.select({ model: aiCalls.model, calls: count(), eur }).from(aiCalls).where(inWindow).groupBy(aiCalls.model).orderBy(sql`2 desc`);
  const answering = await first(
    db
      .select({ eur: sum(aiCalls.costEur) })
      .from(aiCalls)
      .where(and(inWindow, sql`${aiCalls.purpose} in ('answer', 'peer_review', 'synthesis', 'refusal_check')`)),
  );
  const answers =
    (
      await first(
        db
          .select({ n: count() })
          .from(processingRuns)
          .where(and(eq(processingRuns.status, "done"), gte(processingRuns.finishedAt, since))),
      )
    )?.n ?? 0;
  const total = byDay.reduce((s, d) => s + Number(d.eur), 0);
  return {
    days,
    total_eur: roundEur(total),
    spend_by_day: byDay.map((d) => ({ day: d.day, eur: roundEur(Number(d.eur)) })),
    spend_by_model: byModel.map((m) => ({ model: m.model, calls: m.calls, eur: roundEur(Number(m.eur)) })),
    answers,
    average_per_answer_eur: answers > 0 ? roundEur(Number(answering?.eur ?? 0) / answers) : 0,
  };
}
