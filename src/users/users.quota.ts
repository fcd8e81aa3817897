import type { Plan, UserRow } from "../db/schema/index.ts";
import { DAY } from "../lib/clock.ts";

/** Plan allowances live with the prices (DECISIONS.md, Quota model): trial in total, paid per month. */
export { PLAN_ALLOWANCE } from "../contracts/pricing.ts";
export const TRIAL_DAYS = 7;
export const TRIAL_DAYS_MAX = 30;

type QuotaFields = Pick<UserRow, "subscriptionType" | "planQueries" | "extraQueries" | "trialEndsAt">;

export function remainingQueries(u: QuotaFields): number {
  return Math.max(0, u.planQueries) + Math.max(0, u.extraQueries);
}

/** Whole days left in the trial, rounded up, never negative; 0 outside a trial. */
export function trialDaysRemaining(u: QuotaFields, now: Date): number {
  if (u.subscriptionType !== "trial" || !u.trialEndsAt) return 0;
  return Math.max(0, Math.ceil((u.trialEndsAt.getTime() - now.getTime()) / DAY));
}

/** The plan as users and rules see it: a trial past its end or out of requests reads `expired`. */
export function effectivePlan(u: QuotaFields, now: Date): Plan {
  if (u.subscriptionType === "trial" && (trialDaysRemaining(u, now) <= 0 || remainingQueries(u) <= 0)) {
    return "expired";
  }
  return u.subscriptionType;
}
