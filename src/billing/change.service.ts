import { one } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { transaction } from "../db/transaction.ts";
import { type BillingCycle, pendingPlanChanges, type UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { addMonths } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { effectivePlan } from "../users/quota.ts";
import { changeOptionsFor, CYCLE_NAMES, isUpgrade, PLAN_ALLOWANCE, PLAN_NAMES, productFor } from "../contracts/pricing.ts";
import { isStripeMissing, requireStripe, stripeCall } from "./stripe-client.ts";
import { priceData } from "./stripe-products.ts";
import { findPendingChange } from "./subscription.service.ts";
import { syncSubscription } from "./subscription-sync.service.ts";

export type ChangeInput = { target_subscription_type: "basic" | "pro" | "expired"; target_billing_cycle?: BillingCycle | null; user_reason?: string | null };

function frenchDate(d: Date): string {
  return d.toLocaleDateString("fr-FR", { timeZone: "Europe/Paris", day: "2-digit", month: "2-digit", year: "numeric" });
}

/**
 * A change among the options of docs/PRODUCT.md#plan-changes, on a Stripe subscription
 * only: a plan without one (set by an operator) is not changed here, the
 * user subscribes through Checkout instead (no free upgrade). basic -> pro
 * happens now and only once paid (Stripe's pending update); every other
 * change waits for the next renewal date, access kept until then.
 */
export async function requestChange(deps: Deps, user: UserRow, input: ChangeInput) {
  const now = deps.clock.now();
  const plan = effectivePlan(user, now);
  if (plan !== "basic" && plan !== "pro") throw new AppError("NO_ACTIVE_SUBSCRIPTION");
  if (!user.stripeSubscriptionId) throw new AppError("CHECKOUT_REQUIRED");
  if (await findPendingChange(deps.db, user.id)) throw new AppError("CHANGE_PENDING");
  const target = input.target_subscription_type;
  const cycle = target === "expired" ? null : (input.target_billing_cycle ?? user.billingCycle ?? "monthly");
  const offered = changeOptionsFor(plan, user.billingCycle).some((o) => o.target_plan === target && o.target_billing_cycle === cycle);
  if (!offered) throw new AppError("CHANGE_NOT_OFFERED");
  requireStripe(deps.stripe);
  if (target !== "expired" && isUpgrade(plan, target)) return upgradeNow(deps, user, user.stripeSubscriptionId, cycle!);
  return await scheduleChange(deps, user, plan, target, cycle, input.user_reason ?? null);
}

/**
 * basic -> pro at Stripe with payment_behavior "pending_if_incomplete": the
 * new price applies only once its prorated invoice is paid. A declined card
 * leaves the subscription (and so the plan) as it was. The plan and the +30
 * requests then come from the subscription sync, as for any Stripe change.
 */
async function upgradeNow(deps: Deps, user: UserRow, subId: string, cycle: BillingCycle) {
  const { log } = deps;
  const stripe = requireStripe(deps.stripe);
  const sub = await stripeCall(log, "subscriptions.retrieve", () => stripe.subscriptions.retrieve(subId));
  const item = sub.items.data[0];
  if (!item) throw new AppError("STRIPE_UNAVAILABLE");
  const price = await priceData(stripe, log, productFor("pro", cycle));
  let updated: Stripe.Subscription;
  try {
    updated = await stripeCall(log, "subscriptions.update", () =>
      stripe.subscriptions.update(subId, {
        items: [{ id: item.id, price_data: { ...price, recurring: price.recurring! } }],
        proration_behavior: "always_invoice",
        payment_behavior: "pending_if_incomplete",
      }),
    );
  } catch (e) {
    if (e instanceof AppError && e.code === "PAYMENT_DECLINED") throw new AppError("UPGRADE_PAYMENT_FAILED");
    throw e;
  }
  if (updated.pending_update) {
    log.warn("upgrade payment not completed", { user: user.id, subscription: subId });
    throw new AppError("UPGRADE_PAYMENT_FAILED");
  }
  await syncSubscription(deps, subId, `user:${user.id}`, null);
  const now = deps.clock.now();
  log.info("plan upgraded", { user: user.id, cycle });
  return {
    message: frBilling.user.upgraded(CYCLE_NAMES[cycle], PLAN_ALLOWANCE.pro),
    current_plan: "pro" as const,
    target_plan: "pro" as const,
    target_billing_cycle: cycle,
    scheduled_date: now.toISOString(),
  };
}

async function scheduleChange(
  deps: Deps,
  user: UserRow,
  plan: "basic" | "pro",
  target: "basic" | "pro" | "expired",
  cycle: BillingCycle | null,
  reason: string | null,
) {
  const { db, log } = deps;
  const now = deps.clock.now();
  const scheduledAt = user.periodEndsAt ?? user.quotaRenewsAt ?? addMonths(now, 1);
  // The local row first, inside the check: two requests at once cannot both schedule.
  const change = await transaction(db, async (tx) => {
    if (await findPendingChange(tx, user.id)) throw new AppError("CHANGE_PENDING");
    return await one(
      tx
        .insert(pendingPlanChanges)
        .values({ userId: user.id, targetPlan: target, targetCycle: cycle, reason, scheduledAt, status: "pending", createdAt: now })
        .returning(),
    );
  });
  try {
    const scheduleId = await scheduleAtStripe(deps, user.stripeSubscriptionId!, target, cycle);
    if (scheduleId) await db.update(pendingPlanChanges).set({ stripeScheduleId: scheduleId }).where(eq(pendingPlanChanges.id, change.id));
  } catch (e) {
    // Stripe refused: nothing stays scheduled here either.
    await db.delete(pendingPlanChanges).where(eq(pendingPlanChanges.id, change.id));
    throw e;
  }
  log.info("plan change scheduled", { user: user.id, target, cycle, at: scheduledAt.toISOString() });
  const when = frenchDate(scheduledAt);
  const message = target === "expired" ? frBilling.user.cancelScheduled(when) : frBilling.user.changeScheduled(PLAN_NAMES[target], CYCLE_NAMES[cycle!], when);
  return { message, current_plan: plan, target_plan: target, target_billing_cycle: cycle, scheduled_date: scheduledAt.toISOString() };
}

/** Cancellation: cancel at period end. Other changes: a subscription schedule whose second phase is the new price. */
async function scheduleAtStripe(deps: Deps, subId: string, target: "basic" | "pro" | "expired", cycle: BillingCycle | null): Promise<string | null> {
  const { log } = deps;
  const stripe = requireStripe(deps.stripe);
  if (target === "expired") {
    await stripeCall(log, "subscriptions.update", () => stripe.subscriptions.update(subId, { cancel_at_period_end: true }));
    return null;
  }
  const schedule = await stripeCall(log, "subscriptionSchedules.create", () => stripe.subscriptionSchedules.create({ from_subscription: subId }));
  const current = schedule.phases[0];
  if (!current) throw new AppError("STRIPE_UNAVAILABLE");
  const price = await priceData(stripe, log, productFor(target, cycle!));
  await stripeCall(log, "subscriptionSchedules.update", () =>
    stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: "release",
      phases: [
        {
          items: current.items.map((i) => ({ price: typeof i.price === "string" ? i.price : i.price.id, quantity: i.quantity ?? 1 })),
          start_date: current.start_date,
          end_date: current.end_date,
        },
        {
          items: [{ price_data: { ...price, recurring: price.recurring! }, quantity: 1 }],
          duration: { interval: cycle === "annual" ? "year" : "month", interval_count: 1 },
        },
      ],
    }),
  );
  return schedule.id;
}

/** Drops the pending change, at Stripe first (release the schedule, or undo the cancel at period end). */
export async function cancelChange(deps: Deps, user: UserRow) {
  const { db, log } = deps;
  const pending = await findPendingChange(db, user.id);
  if (!pending) throw new AppError("NO_PENDING_CHANGE");
  if (pending.stripeScheduleId || (pending.targetPlan === "expired" && user.stripeSubscriptionId)) {
    const stripe = requireStripe(deps.stripe);
    const scheduleId = pending.stripeScheduleId;
    const subId = user.stripeSubscriptionId;
    await stripeCall(log, "cancel change", async () => {
      try {
        if (scheduleId) await stripe.subscriptionSchedules.release(scheduleId);
        else if (subId) await stripe.subscriptions.update(subId, { cancel_at_period_end: false });
      } catch (e) {
        // Already released or gone at Stripe: the local change can still be dropped.
        if (!isStripeMissing(e)) throw e;
      }
    });
  }
  const now = deps.clock.now();
  await db
    .update(pendingPlanChanges)
    .set({ status: "cancelled", endedAt: now })
    .where(and(eq(pendingPlanChanges.id, pending.id), eq(pendingPlanChanges.status, "pending")));
  return { message: frBilling.user.changeCancelled, cancelled: true };
}
