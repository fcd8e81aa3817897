import { and, eq } from "drizzle-orm";
import { immediate, type Db } from "../db/client.ts";
import { type BillingCycle, pendingPlanChanges, type Plan, type UserRow, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { addMonths, DAY } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { PLAN_ALLOWANCE, TRIAL_DAYS } from "../users/users.quota.ts";

export type PlanInput = { plan: Plan; cycle?: BillingCycle | null };

/** Length of a billing period: where scheduled changes take effect. */
export function periodEnd(start: Date, cycle: BillingCycle): Date {
  return addMonths(start, cycle === "annual" ? 12 : 1);
}

/**
 * The first monthly quota reset after `now`, counted from the plan's start so
 * that clamped month ends (31 Jan -> 28 Feb) do not drift the anniversary.
 */
export function nextQuotaRenewal(startedAt: Date, now: Date): Date {
  let n = 1;
  let next = addMonths(startedAt, n);
  while (next.getTime() <= now.getTime()) next = addMonths(startedAt, ++n);
  return next;
}

/** The columns a plan sets; extra_queries are never touched (packs and bonuses survive). */
export function planColumns(input: PlanInput, start: Date): Partial<UserRow> {
  const { plan } = input;
  if (plan === "trial") {
    return {
      subscriptionType: "trial", billingCycle: null, planQueries: PLAN_ALLOWANCE.trial,
      trialEndsAt: new Date(start.getTime() + TRIAL_DAYS * DAY), planStartedAt: null, quotaRenewsAt: null, periodEndsAt: null,
    };
  }
  if (plan === "expired") {
    return { subscriptionType: "expired", billingCycle: null, planQueries: 0, planStartedAt: null, quotaRenewsAt: null, periodEndsAt: null };
  }
  const cycle = input.cycle ?? "monthly";
  return {
    subscriptionType: plan, billingCycle: cycle, planQueries: PLAN_ALLOWANCE[plan],
    planStartedAt: start, quotaRenewsAt: addMonths(start, 1), periodEndsAt: periodEnd(start, cycle),
  };
}

/** Writes a plan; call inside a transaction. Throws USER_NOT_FOUND. */
export function setPlan(db: Db, now: Date, userId: number, input: PlanInput, extra: Partial<UserRow> = {}, start: Date = now): UserRow {
  const row = db
    .update(users)
    .set({ ...planColumns(input, start), ...extra, updatedAt: now })
    .where(eq(users.id, userId))
    .returning()
    .get();
  if (!row) throw new AppError("USER_NOT_FOUND");
  return row;
}

/** Drops a pending change (the plan it was leaving no longer exists). Inside a transaction. */
export function dropPendingChanges(db: Db, now: Date, userId: number): void {
  db.update(pendingPlanChanges)
    .set({ status: "cancelled", endedAt: now })
    .where(and(eq(pendingPlanChanges.userId, userId), eq(pendingPlanChanges.status, "pending")))
    .run();
}

/**
 * Manual assignment (CLI `users set-plan`, admin panel): sets the plan and
 * cycle from now, a month of quota ahead, the period end a month or a year
 * ahead, the allowance reset, extra requests kept; a pending change is
 * dropped. A Stripe subscription, if any, is left to the operator.
 */
export function assignPlan(deps: Pick<Deps, "db" | "clock">, userId: number, input: PlanInput): UserRow {
  const now = deps.clock.now();
  return immediate(deps.db, () => {
    const row = setPlan(deps.db, now, userId, input);
    dropPendingChanges(deps.db, now, userId);
    return row;
  });
}
