import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { type BillingCycle, pendingPlanChanges, type Plan, type UserRow } from "../db/schema/index.ts";
import { addMonths, DAY } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import {
  addPlanQueries,
  moveBalance,
  type EntitlementValues,
  expireTrialRows,
  insertBillingChange,
  refundOneQuery,
  selectBillingChanges,
  spendOneQuery,
  writeBalances,
  writeEntitlements,
} from "./billing.queries.ts";
import { TRIAL_DAYS } from "../users/quota.ts";
import { PLAN_ALLOWANCE } from "../contracts/pricing.ts";

/**
 * The one owner of entitlements: plan, cycle, period dates, allowance, extra
 * requests and the Stripe subscription an account runs on. Webhooks, the
 * status poll, jobs, reconciliation, the admin panel, the CLI, referrals and
 * checkout all go through these functions; billing.queries.ts holds the SQL
 * and nothing else writes these columns. Every change made for a billing
 * reason is recorded (who, what, why) in billing_changes, in the caller's
 * transaction. Call inside `transaction(,)` when several steps must hold together.
 */

/** Who changed an account and why: the row an operator reads later. */
export type Why = { actor: string; action: string; detail: string; stripeRef?: string | null };

export type PlanInput = { plan: Plan; cycle?: BillingCycle | null };

async function record(db: Db, now: Date, userId: number, why: Why): Promise<void> {
  await noteBillingChange(db, now, userId, why);
}

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

/** The entitlements of a new account: the 7-day trial with its requests. */
export function initialEntitlements(now: Date) {
  return { subscriptionType: "trial" as const, planQueries: PLAN_ALLOWANCE.trial, extraQueries: 0, trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * DAY) };
}

/** The columns a plan sets; extra_queries are never touched (packs and bonuses survive). */
function planColumns(input: PlanInput, start: Date): EntitlementValues {
  const { plan } = input;
  if (plan === "trial") {
    return {
      subscriptionType: "trial",
      billingCycle: null,
      planQueries: PLAN_ALLOWANCE.trial,
      trialEndsAt: new Date(start.getTime() + TRIAL_DAYS * DAY),
      planStartedAt: null,
      quotaRenewsAt: null,
      periodEndsAt: null,
    };
  }
  if (plan === "expired") {
    return { subscriptionType: "expired", billingCycle: null, planQueries: 0, planStartedAt: null, quotaRenewsAt: null, periodEndsAt: null };
  }
  const cycle = input.cycle ?? "monthly";
  return {
    subscriptionType: plan,
    billingCycle: cycle,
    // The trial is over for good: an ended plan must never read as a trial that spent its requests (quota.ts).
    trialEndsAt: null,
    planQueries: PLAN_ALLOWANCE[plan],
    planStartedAt: start,
    quotaRenewsAt: addMonths(start, 1),
    periodEndsAt: periodEnd(start, cycle),
  };
}

function mustWrite(row: UserRow | undefined): UserRow {
  if (!row) throw new AppError("USER_NOT_FOUND");
  return row;
}

/** Drops a pending change (the plan it was leaving no longer exists). */
async function dropPendingChanges(db: Db, now: Date, userId: number): Promise<void> {
  await db
    .update(pendingPlanChanges)
    .set({ status: "cancelled", endedAt: now })
    .where(and(eq(pendingPlanChanges.userId, userId), eq(pendingPlanChanges.status, "pending")));
}

/**
 * A whole plan from `start`: allowance reset, dates set, extra requests kept,
 * a pending change dropped. `stripe` says which Stripe subscription drives it
 * from now on (null: none, the plan renews locally). Throws USER_NOT_FOUND.
 */
export async function grantPlan(
  db: Db,
  now: Date,
  userId: number,
  input: PlanInput,
  why: Why,
  opts: { start?: Date; periodEndsAt?: Date; stripeSubscriptionId?: string | null; stripeCustomerId?: string | null } = {},
): Promise<UserRow> {
  const start = opts.start ?? now;
  const values: EntitlementValues = { ...planColumns(input, start) };
  // A Stripe period already under way (a late event): the next monthly reset after now, the period end Stripe states.
  if (values.quotaRenewsAt && start.getTime() < now.getTime()) values.quotaRenewsAt = nextQuotaRenewal(start, now);
  if (opts.periodEndsAt && values.periodEndsAt) values.periodEndsAt = opts.periodEndsAt;
  if (opts.stripeSubscriptionId !== undefined) values.stripeSubscriptionId = opts.stripeSubscriptionId;
  if (opts.stripeCustomerId) values.stripeCustomerId = opts.stripeCustomerId;
  const row = mustWrite(await writeEntitlements(db, userId, values, now));
  await dropPendingChanges(db, now, userId);
  await record(db, now, userId, why);
  return row;
}

/** The plan is over: expired, no Stripe subscription behind it, extra requests kept. */
export async function endPlan(db: Db, now: Date, userId: number, why: Why): Promise<UserRow> {
  return await grantPlan(db, now, userId, { plan: "expired" }, why, { stripeSubscriptionId: null });
}

/**
 * Plan, cycle and billing period as Stripe's subscription states them; the
 * allowance is left as it is (it changes with paid invoices only).
 */
export async function followStripePlan(
  db: Db,
  now: Date,
  userId: number,
  s: { plan: "basic" | "pro"; cycle: BillingCycle; periodStart: Date; periodEnd: Date; subscriptionId: string },
  why: Why,
): Promise<UserRow> {
  const row = mustWrite(
    await writeEntitlements(
      db,
      userId,
      {
        subscriptionType: s.plan,
        billingCycle: s.cycle,
        planStartedAt: s.periodStart,
        quotaRenewsAt: nextQuotaRenewal(s.periodStart, now),
        periodEndsAt: s.periodEnd,
        stripeSubscriptionId: s.subscriptionId,
      },
      now,
    ),
  );
  await record(db, now, userId, why);
  return row;
}

/** A new quota period: the plan's allowance again, extra requests kept. `guard` makes it conditional on what the caller read. */
export async function resetAllowance(
  db: Db,
  now: Date,
  userId: number,
  s: { plan: Plan; quotaRenewsAt: Date | null; periodEndsAt: Date | null },
  why: Why,
  guard?: SQL,
): Promise<UserRow | undefined> {
  const row = await writeEntitlements(
    db,
    userId,
    { planQueries: PLAN_ALLOWANCE[s.plan], quotaRenewsAt: s.quotaRenewsAt, periodEndsAt: s.periodEndsAt },
    now,
    guard,
  );
  if (row) await record(db, now, userId, why);
  return row;
}

/** Adds to the plan's requests of this period (an upgrade paid: the new allowance on top of what remains). */
export async function addAllowance(db: Db, now: Date, userId: number, n: number, why: Why): Promise<UserRow> {
  const row = mustWrite(await addPlanQueries(db, userId, n, now));
  await record(db, now, userId, why);
  return row;
}

/** Extra requests (packs, referral bonuses, grants): never expire. */
export async function addExtra(db: Db, now: Date, userId: number, n: number, why: Why): Promise<UserRow> {
  const row = mustWrite((await moveBalance(db, userId, "extraQueries", n, now))?.row);
  await record(db, now, userId, why);
  return row;
}

/** Takes back up to `n` unused extra requests (refund, dispute); returns how many were really taken. */
export async function takeBackExtra(db: Db, now: Date, userId: number, n: number, why: (taken: number) => Why): Promise<number> {
  const done = await moveBalance(db, userId, "extraQueries", -n, now);
  if (!done) return 0;
  const taken = done.before - done.row.extraQueries;
  await record(db, now, userId, why(taken));
  return taken;
}

/** Freezes the period's remaining plan requests (a disputed subscription payment); returns how many were frozen. */
export async function holdPlanQueries(db: Db, now: Date, userId: number, why: (held: number) => Why): Promise<number> {
  const done = await moveBalance(db, userId, "planQueries", -Number.MAX_SAFE_INTEGER, now);
  if (!done) return 0;
  const held = done.before - done.row.planQueries;
  await record(db, now, userId, why(held));
  return held;
}

/** Gives frozen plan requests back, never above the plan's allowance; returns how many were given. */
export async function releasePlanQueries(db: Db, now: Date, userId: number, n: number, allowance: number, why: (given: number) => Why): Promise<number> {
  const done = await moveBalance(db, userId, "planQueries", n, now, allowance);
  if (!done) return 0;
  const given = Math.max(0, done.row.planQueries - done.before);
  await record(db, now, userId, why(given));
  return given;
}

/** The admin's "remaining requests": the sum becomes n, extra requests kept first, capped at n. */
export async function setRemaining(db: Db, now: Date, user: UserRow, n: number, why: Why): Promise<UserRow> {
  const extra = Math.min(Math.max(0, user.extraQueries), n);
  const row = mustWrite(await writeBalances(db, user.id, n - extra, extra, now));
  await record(db, now, user.id, why);
  return row;
}

export async function setTrialEnd(db: Db, now: Date, userId: number, trialEndsAt: Date, why: Why): Promise<UserRow> {
  const row = mustWrite(await writeEntitlements(db, userId, { trialEndsAt }, now));
  await record(db, now, userId, why);
  return row;
}

/** Records a decision that changed no column (a refund marked, a duplicate cancelled, a difference found). */
export async function noteBillingChange(db: Db, now: Date, userId: number | null, why: Why): Promise<void> {
  await insertBillingChange(db, { userId, actor: why.actor, action: why.action, detail: why.detail, stripeRef: why.stripeRef ?? null, createdAt: now });
}

/** An account's billing record, newest first, as the admin view and `unisson users show` print it. */
export async function billingHistory(db: Db, userId: number, limit = 50) {
  return (await selectBillingChanges(db, userId, limit)).map((c) => ({
    at: c.createdAt.toISOString(),
    actor: c.actor,
    action: c.action,
    detail: c.detail,
    stripe_ref: c.stripeRef,
  }));
}

/** Trials past their days or out of requests are written expired. */
export async function expireTrials(db: Db, now: Date): Promise<number> {
  return (await expireTrialRows(db, now)).length;
}

/** Spending a request and giving it back (chat engine): the same owner, no record per request. */
export { refundOneQuery, spendOneQuery };
export type { QuotaSource } from "./billing.queries.ts";
