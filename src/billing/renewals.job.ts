import { first } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { and, eq, inArray, lte } from "drizzle-orm";
import { transaction } from "../db/transaction.ts";
import { pendingPlanChanges, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import type { Job } from "../jobs/job.ts";
import { addMonths } from "../lib/clock.ts";
import { endPlan, expireTrials as expireTrialRows, grantPlan, nextQuotaRenewal, resetAllowance } from "./entitlements.ts";
import { CYCLE_NAMES, PLAN_NAMES } from "../contracts/pricing.ts";

/**
 * Renewal timers. Each run is safe to repeat: every write is conditional on
 * the state it read, inside a transaction, so a second run (or the
 * CLI's `renewals run` beside the server) finds nothing left to do.
 */

/** Downgrades, cycle changes and cancellations whose renewal date has come. */
async function applyDueChanges({ db, clock }: Pick<Deps, "db" | "clock">) {
  const now = clock.now();
  // A Stripe subscriber's downgrade or cycle change is Stripe's to make (its schedule switches the price at
  // renewal, and the subscription sync follows); only plans without a subscription, and cancellations, change here.
  const due = (
    await db
      .select({ change: pendingPlanChanges, subscription: users.stripeSubscriptionId })
      .from(pendingPlanChanges)
      .innerJoin(users, eq(users.id, pendingPlanChanges.userId))
      .where(and(eq(pendingPlanChanges.status, "pending"), lte(pendingPlanChanges.scheduledAt, now)))
  )
    .filter((r) => r.change.targetPlan === "expired" || !r.subscription)
    .map((r) => r.change);
  let applied = 0;
  for (const change of due) {
    await transaction(db, async (tx) => {
      const claimed = await first(
        tx
          .update(pendingPlanChanges)
          .set({ status: "applied", endedAt: now })
          .where(and(eq(pendingPlanChanges.id, change.id), eq(pendingPlanChanges.status, "pending")))
          .returning(),
      );
      if (!claimed) return;
      if (change.targetPlan === "expired") {
        // Stripe ends the subscription itself (cancel at period end); nothing drives this plan any more.
        await endPlan(tx, now, change.userId, { actor: "job", action: "plan", detail: frBilling.change.scheduledCancelApplied });
      } else {
        // The new plan starts on the renewal date, so its monthly anniversaries stay where they were.
        const cycle = change.targetCycle ?? "monthly";
        await grantPlan(
          tx,
          now,
          change.userId,
          { plan: change.targetPlan, cycle },
          {
            actor: "job",
            action: "plan",
            detail: frBilling.change.scheduledChangeApplied(PLAN_NAMES[change.targetPlan], CYCLE_NAMES[cycle]),
          },
          { start: change.scheduledAt },
        );
      }
      applied++;
    });
  }
  return { applied };
}

/**
 * Monthly allowance resets that no Stripe invoice drives: plans set by the CLI
 * or the admin (no Stripe subscription; their billing period rolls over by
 * itself), and the months inside a paid year of an annual Stripe plan. A
 * monthly Stripe plan, and the anniversary of an annual one, are reset by
 * invoice.paid only, so an unpaid renewal gives no new allowance.
 */
async function renewLocalQuotas({ db, clock }: Pick<Deps, "db" | "clock">) {
  const now = clock.now();
  const candidates = await db
    .select()
    .from(users)
    .where(and(inArray(users.subscriptionType, ["basic", "pro"]), lte(users.quotaRenewsAt, now)));
  let renewed = 0;
  for (const u of candidates) {
    const quotaDue = u.quotaRenewsAt!;
    const stripeDriven = u.stripeSubscriptionId !== null;
    if (stripeDriven && (u.billingCycle !== "annual" || !u.periodEndsAt || quotaDue.getTime() >= u.periodEndsAt.getTime())) continue;
    const anchor = u.planStartedAt ?? quotaDue;
    let periodEndsAt = u.periodEndsAt;
    if (!stripeDriven && periodEndsAt) {
      const months = u.billingCycle === "annual" ? 12 : 1;
      while (periodEndsAt.getTime() <= now.getTime()) periodEndsAt = addMonths(periodEndsAt, months);
    }
    const done = await resetAllowance(
      db,
      now,
      u.id,
      { plan: u.subscriptionType, quotaRenewsAt: nextQuotaRenewal(anchor, now), periodEndsAt },
      { actor: "job", action: "renewal", detail: frBilling.change.monthRenewed },
      and(eq(users.quotaRenewsAt, quotaDue), eq(users.subscriptionType, u.subscriptionType)),
    );
    if (done) renewed++;
  }
  return { renewed };
}

/** Trials past their 7 days or out of requests become `expired` (written, not only displayed). */
export async function expireTrials({ db, clock }: Pick<Deps, "db" | "clock">) {
  return { expired: await expireTrialRows(db, clock.now()) };
}

const MINUTE_MS = 60_000;

/** Order matters for `renewals run`: a due change first, then the renewal of the plan it left in place. */
export const renewalJobs: Job[] = [
  { name: "plan-changes", everyMs: MINUTE_MS, runAtStart: true, run: applyDueChanges },
  { name: "quota-renewals", everyMs: MINUTE_MS, runAtStart: true, run: renewLocalQuotas },
  { name: "trial-expiry", everyMs: MINUTE_MS, runAtStart: true, run: expireTrials },
];
