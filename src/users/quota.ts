import type { Plan, UserRow } from "../db/schema/index.ts";
import { DAY } from "../lib/clock.ts";

/** Plan allowances live with the prices (DECISIONS.md, Quota model): trial in total, paid per month. */
export const TRIAL_DAYS = 7;
export const TRIAL_DAYS_MAX = 30;

type QuotaFields = Pick<UserRow, "subscriptionType" | "planQueries" | "extraQueries" | "trialEndsAt">;

export function remainingQueries(u: QuotaFields): number {
  return Math.max(0, u.planQueries) + Math.max(0, u.extraQueries);
}

/**
 * Whole days left in the trial, rounded up, never negative; 0 outside a
 * trial. A trial that spent its requests is written `expired` by the
 * trial-expiry job while its days still run: they are still counted, so the
 * page and the 402 keep saying why it is blocked (its requests, not its days).
 * A paid plan clears trialEndsAt (entitlements.ts), so an ended plan counts none.
 */
export function trialDaysRemaining(u: QuotaFields, now: Date): number {
  if ((u.subscriptionType !== "trial" && u.subscriptionType !== "expired") || !u.trialEndsAt) return 0;
  return Math.max(0, Math.ceil((u.trialEndsAt.getTime() - now.getTime()) / DAY));
}

/** The plan as users and rules see it: a trial past its end or out of requests reads `expired`. */
export function effectivePlan(u: QuotaFields, now: Date): Plan {
  if (u.subscriptionType === "trial" && (trialDaysRemaining(u, now) <= 0 || remainingQueries(u) <= 0)) {
    return "expired";
  }
  return u.subscriptionType;
}
