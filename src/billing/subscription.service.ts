import { first } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { pendingPlanChanges, type UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { effectivePlan } from "../users/quota.ts";
import { changeOptionsFor, formatEuros, isUpgrade, OFFERS, type Product, productFor } from "../contracts/pricing.ts";

export type PendingChange = typeof pendingPlanChanges.$inferSelect;

export async function findPendingChange(db: Db, userId: number): Promise<PendingChange | undefined> {
  return await first(
    db
      .select()
      .from(pendingPlanChanges)
      .where(and(eq(pendingPlanChanges.userId, userId), eq(pendingPlanChanges.status, "pending"))),
  );
}

/** Subscription info of docs/PRODUCT.md#subscription-status, plus the change options the overlay lists. */
export async function subscriptionStatus(deps: Deps, user: UserRow) {
  const now = deps.clock.now();
  const plan = effectivePlan(user, now);
  const paid = plan === "basic" || plan === "pro";
  const cycle = paid ? (user.billingCycle ?? "monthly") : null;
  const pending = await findPendingChange(deps.db, user.id);
  return {
    current_subscription: plan,
    current_billing_cycle: cycle,
    next_renewal_date: paid ? (user.periodEndsAt?.toISOString() ?? null) : null,
    next_quota_reset: paid ? (user.quotaRenewsAt?.toISOString() ?? null) : null,
    pending_change: pending
      ? { target_plan: pending.targetPlan, target_billing_cycle: pending.targetCycle, scheduled_date: pending.scheduledAt.toISOString() }
      : null,
    change_options: pending ? [] : changeOptionsFor(plan, cycle),
  };
}

const euros = (cents: number) => Math.round(cents) / 100;

/**
 * What an offer costs this user now. An upgrade (basic -> pro) of a Stripe subscription is prorated
 * the way Stripe does it: on the same cycle the difference for the unused
 * part of the period; to another cycle the full new price minus the credit
 * for the unused part of the current period.
 */
export function upgradeQuote(deps: Deps, user: UserRow, product: Product) {
  const now = deps.clock.now();
  const plan = effectivePlan(user, now);
  const target = OFFERS[product];
  const upgrade = !!target.plan && isUpgrade(plan, target.plan);
  let creditCents = 0;
  let priceCents = target.price_cents;
  // Only a Stripe subscription is prorated; a plan an operator set is replaced through Checkout at the full price.
  if (upgrade && user.stripeSubscriptionId && user.planStartedAt && user.periodEndsAt) {
    const cycle = user.billingCycle ?? "monthly";
    const current = OFFERS[productFor(plan as "basic", cycle)];
    const total = user.periodEndsAt.getTime() - user.planStartedAt.getTime();
    const unused = Math.min(1, Math.max(0, (user.periodEndsAt.getTime() - now.getTime()) / total));
    creditCents = Math.round(current.price_cents * unused);
    priceCents =
      target.billing_cycle === cycle
        ? Math.max(0, Math.round((target.price_cents - current.price_cents) * unused))
        : Math.max(0, target.price_cents - creditCents);
  }
  let savings_message = "";
  if (upgrade && creditCents > 0) {
    savings_message = frBilling.user.upgradeCredit(formatEuros(creditCents));
  } else if (target.savings_cents) {
    savings_message = frBilling.user.annualSavings(formatEuros(target.savings_cents), target.badge);
  }
  return {
    product_type: product,
    is_upgrade: upgrade,
    prorated_credit: euros(creditCents),
    upgrade_price: euros(priceCents),
    prorated_credit_cents: creditCents,
    upgrade_price_cents: priceCents,
    savings_message,
  };
}
