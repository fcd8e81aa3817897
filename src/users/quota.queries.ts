import { and, eq, gt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema/index.ts";

export type QuotaSource = "plan" | "extra";

/** The SQL twin of effectivePlan(): a user who may spend a request right now. */
function activeAt(now: Date) {
  return and(ne(users.subscriptionType, "expired"), or(ne(users.subscriptionType, "trial"), gt(users.trialEndsAt, now)));
}

/**
 * Spends one request: plan_queries first, then extra_queries. Each balance is
 * taken with one conditional UPDATE whose WHERE does all the checking (active
 * plan, balance above zero), so concurrent spends never read-then-write and
 * never go below zero; the second statement runs only when the first matched
 * nothing. Returns the balance it came from (refunds go back there), or null
 * when refused (trial over, plan expired, nothing left).
 */
export function spendOneQuery(db: Db, userId: number, now: Date): QuotaSource | null {
  const fromPlan = db
    .update(users)
    .set({ planQueries: sql`${users.planQueries} - 1`, updatedAt: now })
    .where(and(eq(users.id, userId), activeAt(now), gt(users.planQueries, 0)))
    .returning({ id: users.id })
    .get();
  if (fromPlan) return "plan";
  const fromExtra = db
    .update(users)
    .set({ extraQueries: sql`${users.extraQueries} - 1`, updatedAt: now })
    .where(and(eq(users.id, userId), activeAt(now), gt(users.extraQueries, 0)))
    .returning({ id: users.id })
    .get();
  return fromExtra ? "extra" : null;
}

/** Gives one request back to the balance it was spent from (final processing failed). */
export function refundOneQuery(db: Db, userId: number, source: QuotaSource, now: Date): void {
  const column = source === "plan" ? users.planQueries : users.extraQueries;
  db.update(users)
    .set(source === "plan" ? { planQueries: sql`${column} + 1`, updatedAt: now } : { extraQueries: sql`${column} + 1`, updatedAt: now })
    .where(eq(users.id, userId))
    .run();
}
