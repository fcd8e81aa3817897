import { first } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { transaction } from "../db/transaction.ts";
import { pendingPlanChanges, purchases, type UserRow, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { findUserById } from "../users/users.queries.ts";
import { addAllowance, endPlan, followStripePlan, grantPlan, nextQuotaRenewal, noteBillingChange, resetAllowance } from "./entitlements.ts";
import { CYCLE_NAMES, PLAN_ALLOWANCE, PLAN_NAMES, productFor } from "../contracts/pricing.ts";
import { isStripeMissing, requireStripe, stripeCall } from "./stripe-client.ts";
import { planOfProduct } from "./stripe-products.ts";

/**
 * Stripe decides, events only wake us up: on any subscription event the
 * subscription and its latest invoice are fetched again and the account is
 * made to match them. Plan, cycle and period follow the subscription; the
 * allowance moves with paid invoices only, each claimed once by its id (a
 * purchases row). So the order, delays and duplicates of events do not
 * change the end state.
 */

/** Access goes on: paid, in trial, or Stripe still retrying a failed renewal. */
const LIVE = new Set<string>(["active", "trialing", "past_due"]);
/** The subscription is over: cancelled, unpaid after the retries, or never paid. */
const ENDED = new Set<string>(["canceled", "unpaid", "incomplete_expired"]);

export type SubscriptionState = { sub: Stripe.Subscription; invoice: Stripe.Invoice | null; user: UserRow | undefined; otherLive: string | null };
export type SyncOutcome = "linked" | "updated" | "ended" | "unchanged" | "duplicate" | "orphan";

export const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === "string" ? v : (v?.id ?? null));

export function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

/** Plan and cycle of a subscription: its item's product and interval (our fixed product ids). */
export function planOfSubscription(sub: Stripe.Subscription): { plan: "basic" | "pro"; cycle: "monthly" | "annual"; start: Date; end: Date } | null {
  const item = sub.items.data[0];
  if (!item) return null;
  const plan = planOfProduct(idOf(item.price.product));
  if (!plan) return null;
  return {
    plan,
    cycle: item.price.recurring?.interval === "year" ? "annual" : "monthly",
    start: new Date(item.current_period_start * 1000),
    end: new Date(item.current_period_end * 1000),
  };
}

/** The account a subscription belongs to: linked to it, else named in its metadata, else its customer's. */
async function ownerOf(deps: Deps, sub: Stripe.Subscription): Promise<UserRow | undefined> {
  const { db } = deps;
  const linked = await first(db.select().from(users).where(eq(users.stripeSubscriptionId, sub.id)));
  if (linked) return linked;
  const meta = Number(sub.metadata?.user_id);
  const byMeta = Number.isInteger(meta) && meta > 0 ? await findUserById(db, meta) : undefined;
  if (byMeta) return byMeta;
  const customer = idOf(sub.customer);
  return customer ? await first(db.select().from(users).where(eq(users.stripeCustomerId, customer))) : undefined;
}

/** What Stripe says now: the subscription, its latest invoice, and whether the account's other subscription is still live. */
export async function fetchSubscriptionState(deps: Deps, subId: string): Promise<SubscriptionState> {
  const stripe = requireStripe(deps.stripe);
  const sub = await stripeCall(deps.log, "subscriptions.retrieve", () => stripe.subscriptions.retrieve(subId, { expand: ["latest_invoice"] }));
  return await stateOf(deps, sub);
}

/** The state around a subscription already fetched (with latest_invoice expanded): its account, and that account's other live one. */
export async function stateOf(deps: Deps, sub: Stripe.Subscription): Promise<SubscriptionState> {
  const stripe = requireStripe(deps.stripe);
  const invoice = typeof sub.latest_invoice === "object" ? sub.latest_invoice : null;
  const user = await ownerOf(deps, sub);
  let otherLive: string | null = null;
  const other = user?.stripeSubscriptionId;
  if (other && other !== sub.id && LIVE.has(sub.status)) {
    const current = await stripeCall(deps.log, "subscriptions.retrieve", async () => {
      try {
        return await stripe.subscriptions.retrieve(other);
      } catch (e) {
        if (isStripeMissing(e)) return null;
        throw e;
      }
    });
    if (current && LIVE.has(current.status)) otherLive = other;
  }
  return { sub, invoice, user, otherLive };
}

export const isLive = (status: string) => LIVE.has(status);

/** Records a paid invoice once; true when this call claimed it. */
export async function claimInvoice(
  deps: Deps,
  now: Date,
  userId: number,
  invoice: Stripe.Invoice,
  plan: "basic" | "pro",
  cycle: "monthly" | "annual",
): Promise<boolean> {
  const row = await first(
    deps.db
      .insert(purchases)
      .values({
        userId,
        productType: productFor(plan, cycle),
        invoiceId: invoice.id,
        amountCents: invoice.amount_paid,
        currency: invoice.currency,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: purchases.id }),
  );
  return !!row;
}

/**
 * Makes the account match the fetched state; run inside a transaction (the
 * caller's, or its own). `actor`: who woke us ("stripe" for an event,
 * "reconcile"), `ref`: the event id, for the record.
 */
export async function applySubscriptionState(deps: Deps, state: SubscriptionState, actor: string, ref: string | null): Promise<SyncOutcome> {
  const { db, clock, log } = deps;
  const now = clock.now();
  const { sub, invoice } = state;
  // Re-read inside the transaction: another event may have moved the account meanwhile.
  const user = state.user && (await findUserById(db, state.user.id));
  if (!user) {
    log.warn("stripe subscription without a matching account", { subscription: sub.id, status: sub.status });
    return "orphan";
  }
  const linked = user.stripeSubscriptionId === sub.id;
  const why = (action: string, detail: string) => ({ actor, action, detail, stripeRef: ref ?? sub.id });

  if (ENDED.has(sub.status)) {
    // Ends the plan it drives; a subscription that ended before we linked it ends a trial too, never a plan it does not drive.
    const trialNeverLinked = !user.stripeSubscriptionId && user.subscriptionType === "trial" && sub.status === "canceled" && invoice?.status === "paid";
    if (linked || trialNeverLinked) {
      await endPlan(db, now, user.id, why("plan", frBilling.change.stripeEnded(sub.status)));
      return "ended";
    }
    return "unchanged";
  }
  if (!LIVE.has(sub.status)) return "unchanged";
  const stripePlan = planOfSubscription(sub);
  if (!stripePlan) {
    log.warn("stripe subscription with an unknown product", { subscription: sub.id });
    return "unchanged";
  }
  if (!linked && state.otherLive) return "duplicate";

  const label = `${PLAN_NAMES[stripePlan.plan]} (${CYCLE_NAMES[stripePlan.cycle]})`;
  let outcome: SyncOutcome = "unchanged";
  if (!linked) {
    await grantPlan(db, now, user.id, stripePlan, why("plan", `Abonnement Stripe ${label} actif.`), {
      start: stripePlan.start,
      periodEndsAt: stripePlan.end,
      stripeSubscriptionId: sub.id,
      stripeCustomerId: idOf(sub.customer),
    });
    // The invoice that started it is counted by this grant, not again below.
    if (invoice?.status === "paid") await claimInvoice(deps, now, user.id, invoice, stripePlan.plan, stripePlan.cycle);
    return "linked";
  }
  const samePeriod = user.periodEndsAt?.getTime() === stripePlan.end.getTime() && user.planStartedAt?.getTime() === stripePlan.start.getTime();
  if (user.subscriptionType !== stripePlan.plan || user.billingCycle !== stripePlan.cycle || !samePeriod) {
    await followStripePlan(
      db,
      now,
      user.id,
      { ...stripePlan, periodStart: stripePlan.start, periodEnd: stripePlan.end, subscriptionId: sub.id },
      why("plan", frBilling.change.alignedOnStripe(label, stripePlan.end.toISOString().slice(0, 10))),
    );
    await settlePendingChange(deps, now, user.id, stripePlan.plan, stripePlan.cycle);
    // basic -> pro at Stripe happens only once the upgrade is paid: its allowance is added to what remains.
    if (user.subscriptionType === "basic" && stripePlan.plan === "pro") {
      await addAllowance(db, now, user.id, PLAN_ALLOWANCE.pro, why("upgrade", frBilling.change.upgradePaid(PLAN_ALLOWANCE.pro)));
    }
    outcome = "updated";
  }
  if (invoice?.status === "paid" && (await claimInvoice(deps, now, user.id, invoice, stripePlan.plan, stripePlan.cycle))) {
    if (invoice.billing_reason === "subscription_cycle") {
      await resetAllowance(
        db,
        now,
        user.id,
        { plan: stripePlan.plan, quotaRenewsAt: nextQuotaRenewal(stripePlan.start, now), periodEndsAt: stripePlan.end },
        why("renewal", frBilling.change.renewalPaid(invoice.id, label, PLAN_ALLOWANCE[stripePlan.plan])),
      );
      log.info("subscription renewed", { user: user.id, invoice: invoice.id });
    }
    outcome = outcome === "unchanged" ? "updated" : outcome;
  }
  return outcome;
}

/** The change the user asked for has happened at Stripe (its schedule switched the price): marked applied. */
async function settlePendingChange(deps: Deps, now: Date, userId: number, plan: "basic" | "pro", cycle: "monthly" | "annual"): Promise<void> {
  await deps.db
    .update(pendingPlanChanges)
    .set({ status: "applied", endedAt: now })
    .where(
      and(
        eq(pendingPlanChanges.userId, userId),
        eq(pendingPlanChanges.status, "pending"),
        eq(pendingPlanChanges.targetPlan, plan),
        eq(pendingPlanChanges.targetCycle, cycle),
      ),
    );
}

/** Cancels the subscription now (no further invoice, no proration); already ended or gone at Stripe is fine. */
export async function cancelNow(deps: Deps, subId: string): Promise<void> {
  const stripe = requireStripe(deps.stripe);
  await stripeCall(deps.log, "subscriptions.cancel", async () => {
    try {
      const sub = await stripe.subscriptions.retrieve(subId);
      if (ENDED.has(sub.status)) return;
      await stripe.subscriptions.cancel(subId, { invoice_now: false, prorate: false });
    } catch (e) {
      if (!isStripeMissing(e)) throw e;
    }
  });
}

/**
 * A second live subscription for an account that already has one: cancelled
 * at once at Stripe and its payment refunded, recorded for the admin.
 */
export async function settleDuplicate(deps: Deps, state: SubscriptionState, actor: string): Promise<void> {
  const { db, clock, log } = deps;
  const stripe = requireStripe(deps.stripe);
  const { sub, invoice } = state;
  await cancelNow(deps, sub.id);
  let refunded = false;
  if (invoice?.status === "paid" && invoice.amount_paid > 0) {
    const payments = await stripeCall(log, "invoicePayments.list", () => stripe.invoicePayments.list({ invoice: invoice.id, limit: 1 }));
    const pi = idOf(payments.data[0]?.payment?.payment_intent);
    if (pi) {
      await stripeCall(log, "refunds.create", () =>
        stripe.refunds.create(
          { payment_intent: pi, reason: "duplicate", metadata: { unisson_reason: "duplicate_subscription", subscription: sub.id } },
          { idempotencyKey: `duplicate-${sub.id}` },
        ),
      );
      refunded = true;
    }
  }
  const now = clock.now();
  await transaction(db, async (tx) => {
    if (invoice?.status === "paid") {
      await tx
        .insert(purchases)
        .values({
          userId: state.user?.id ?? null,
          productType: productFor(planOfSubscription(sub)?.plan ?? "basic", planOfSubscription(sub)?.cycle ?? "monthly"),
          invoiceId: invoice.id,
          amountCents: invoice.amount_paid,
          currency: invoice.currency,
          status: refunded ? "refunded" : "completed",
          createdAt: now,
        })
        .onConflictDoUpdate({ target: purchases.invoiceId, set: { status: refunded ? "refunded" : "completed" } });
    }
    await noteBillingChange(tx, now, state.user?.id ?? null, {
      actor,
      action: "duplicate_subscription",
      stripeRef: sub.id,
      detail: frBilling.change.duplicateCancelled(
        sub.id,
        refunded ? `${(invoice!.amount_paid / 100).toFixed(2).replace(".", ",")} €` : null,
        String(state.otherLive),
      ),
    });
  });
  log.warn("duplicate subscription cancelled and refunded", { user: state.user?.id, subscription: sub.id, kept: state.otherLive, refunded });
}

/** Fetches, applies, and settles a duplicate: the whole answer to one subscription event. */
export async function syncSubscription(deps: Deps, subId: string, actor: string, ref: string | null): Promise<SyncOutcome> {
  const state = await fetchSubscriptionState(deps, subId);
  const outcome = await transaction(deps.db, async (tx) => await applySubscriptionState({ ...deps, db: tx }, state, actor, ref));
  if (outcome === "duplicate") await settleDuplicate(deps, state, actor);
  return outcome;
}
