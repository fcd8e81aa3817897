import { first } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { and, eq, isNull } from "drizzle-orm";
import type Stripe from "stripe";
import { transaction } from "../db/transaction.ts";
import { purchases, referrals, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { addExtra, endPlan, holdPlanQueries, noteBillingChange, releasePlanQueries, takeBackExtra, type Why } from "./entitlements.ts";
import { formatEuros, OFFERS } from "../contracts/pricing.ts";
import { requireStripe, stripeCall } from "./stripe-client.ts";
import { cancelNow, idOf, invoiceSubscription } from "./subscription-sync.service.ts";

/**
 * Money going back (DECISIONS.md, Refunds and disputes). Stripe decides here
 * too: the charge or dispute is fetched again, whatever the event carried.
 * - full refund of a pack: its unused requests are taken back; of a
 *   subscription payment: the subscription is cancelled at Stripe and the
 *   plan ends, unless the refund carries metadata unisson_keep_plan=true;
 *   the referral bonus that payment earned is taken back from both sides
 *   (what is left of it). Partial refunds change nothing.
 * - dispute opened: the pack's requests, or the subscription period's remaining
 *   plan requests, are held (taken back, remembered);
 *   won: given back; lost: treated as a full refund.
 * Every step is recorded in billing_changes with its Stripe reference.
 */

type PurchaseRow = typeof purchases.$inferSelect;

/** The purchase a payment paid for: an invoice (subscriptions) or a Checkout Session (packs, first payments). */
async function purchaseOfPayment(deps: Deps, pi: string): Promise<{ purchase: PurchaseRow; invoiceId: string | null } | null> {
  const { db, log } = deps;
  const stripe = requireStripe(deps.stripe);
  const payments = await stripeCall(log, "invoicePayments.list", () =>
    stripe.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: pi }, limit: 1 }),
  );
  const invoiceId = idOf(payments.data[0]?.invoice);
  if (invoiceId) {
    const purchase = await first(db.select().from(purchases).where(eq(purchases.invoiceId, invoiceId)));
    return purchase ? { purchase, invoiceId } : null;
  }
  const sessions = await stripeCall(log, "checkout.sessions.list", () => stripe.checkout.sessions.list({ payment_intent: pi, limit: 1 }));
  const sessionId = sessions.data[0]?.id;
  const purchase = sessionId ? await first(db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId))) : undefined;
  return purchase ? { purchase, invoiceId: null } : null;
}

/** The subscription an invoice paid for, when it is still the one the account runs on. */
async function drivingSubscription(deps: Deps, invoiceId: string | null, userId: number | null): Promise<string | null> {
  if (!invoiceId || userId === null) return null;
  const stripe = requireStripe(deps.stripe);
  const invoice = await stripeCall(deps.log, "invoices.retrieve", () => stripe.invoices.retrieve(invoiceId));
  const subId = invoiceSubscription(invoice);
  const user = await first(deps.db.select({ sub: users.stripeSubscriptionId }).from(users).where(eq(users.id, userId)));
  return subId && user?.sub === subId ? subId : null;
}

/**
 * What the purchase gave is taken back (full refund, lost dispute): pack
 * requests not already held, the plan its subscription drives (unless kept),
 * the referral bonus it earned. Runs in the caller's transaction.
 */
async function takeBack(deps: Deps, now: Date, purchase: PurchaseRow, endSubscription: boolean, why: (detail: string) => Why): Promise<void> {
  const { db } = deps;
  const userId = purchase.userId;
  const offer = OFFERS[purchase.productType];
  if (userId !== null && !offer.plan) {
    const owed = Math.max(0, offer.requests - purchase.heldRequests);
    if (owed > 0) await takeBackExtra(db, now, userId, owed, (n) => why(frBilling.change.packTakenBack(n, owed)));
  }
  await db.update(purchases).set({ status: "refunded", heldRequests: 0 }).where(eq(purchases.id, purchase.id));
  if (userId !== null && endSubscription) await endPlan(db, now, userId, why(frBilling.change.planEndedByRefund));
  if (purchase.checkoutSessionId) {
    const referral = await first(
      db
        .select()
        .from(referrals)
        .where(and(eq(referrals.checkoutSessionId, purchase.checkoutSessionId), isNull(referrals.revokedAt))),
    );
    if (referral) {
      await db.update(referrals).set({ revokedAt: now }).where(eq(referrals.id, referral.id));
      for (const id of [referral.referrerId, referral.refereeId]) {
        if (id !== null) await takeBackExtra(db, now, id, referral.bonus, (n) => why(frBilling.change.bonusTakenBack(n, referral.bonus)));
      }
    }
  }
}

/** charge.refunded: only a full refund takes anything back. */
export async function chargeRefunded(deps: Deps, chargeId: string): Promise<void> {
  const { db, clock, log } = deps;
  const stripe = requireStripe(deps.stripe);
  const charge = await stripeCall(log, "charges.retrieve", () => stripe.charges.retrieve(chargeId));
  const pi = idOf(charge.payment_intent);
  if (!pi || !charge.refunded) return;
  const found = await purchaseOfPayment(deps, pi);
  if (!found) {
    log.warn("refund of an unknown payment", { payment_intent: pi });
    return;
  }
  if (found.purchase.status === "refunded") return;
  const refunds = await stripeCall(log, "refunds.list", () => stripe.refunds.list({ charge: charge.id, limit: 10 }));
  const keep = refunds.data.some((r) => r.metadata?.unisson_keep_plan === "true");
  const subId = keep ? null : await drivingSubscription(deps, found.invoiceId, found.purchase.userId);
  if (subId) await cancelNow(deps, subId);
  const now = clock.now();
  const amount = formatEuros(charge.amount_refunded);
  await transaction(db, async (tx) => {
    const purchase = (await first(tx.select().from(purchases).where(eq(purchases.id, found.purchase.id))))!;
    if (purchase.status === "refunded") return;
    const why = (detail: string): Why => ({ actor: "stripe", action: "refund", detail: frBilling.change.refund(amount, detail), stripeRef: charge.id });
    await noteBillingChange(tx, now, purchase.userId, why(keep ? frBilling.change.refundKept : frBilling.change.refundMarked));
    await takeBack({ ...deps, db: tx }, now, purchase, subId !== null, why);
  });
  log.info("full refund applied", { purchase: found.purchase.id, kept: keep });
}

const OPEN_DISPUTE = new Set<string>(["warning_needs_response", "needs_response", "under_review", "warning_under_review"]);

/** charge.dispute.*: opened holds the pack's requests or the period's plan requests, won gives them back, lost takes everything back. */
export async function disputeChanged(deps: Deps, disputeId: string): Promise<void> {
  const { db, clock, log } = deps;
  const stripe = requireStripe(deps.stripe);
  const dispute: Stripe.Dispute = await stripeCall(log, "disputes.retrieve", () => stripe.disputes.retrieve(disputeId));
  let pi = idOf(dispute.payment_intent);
  if (!pi) {
    const chargeId = idOf(dispute.charge);
    if (chargeId) pi = idOf((await stripeCall(log, "charges.retrieve", () => stripe.charges.retrieve(chargeId))).payment_intent);
  }
  const found = pi ? await purchaseOfPayment(deps, pi) : null;
  if (!found) {
    log.warn("dispute of an unknown payment", { dispute: dispute.id });
    return;
  }
  const lost = dispute.status === "lost";
  const subId = lost ? await drivingSubscription(deps, found.invoiceId, found.purchase.userId) : null;
  if (subId) await cancelNow(deps, subId);
  const now = clock.now();
  await transaction(db, async (tx) => {
    const purchase = (await first(tx.select().from(purchases).where(eq(purchases.id, found.purchase.id))))!;
    const offer = OFFERS[purchase.productType];
    const why = (detail: string): Why => ({
      actor: "stripe",
      action: "dispute",
      detail: `Litige ${dispute.id} (${dispute.status}) : ${detail}`,
      stripeRef: dispute.id,
    });
    if (OPEN_DISPUTE.has(dispute.status) && purchase.status === "completed") {
      let held = 0;
      if (purchase.userId !== null && !offer.plan)
        held = await takeBackExtra(tx, now, purchase.userId, offer.requests, (n) => why(frBilling.change.packHeld(n)));
      else if (purchase.userId !== null) held = await holdPlanQueries(tx, now, purchase.userId, (n) => why(frBilling.change.planHeld(n)));
      else await noteBillingChange(tx, now, purchase.userId, why(frBilling.change.disputeOpen));
      await tx.update(purchases).set({ status: "disputed", heldRequests: held }).where(eq(purchases.id, purchase.id));
    } else if ((dispute.status === "won" || dispute.status === "warning_closed") && purchase.status === "disputed") {
      if (purchase.userId !== null && purchase.heldRequests > 0 && offer.plan) {
        // A renewal may have come meanwhile: what is given back never passes the plan's allowance.
        await releasePlanQueries(tx, now, purchase.userId, purchase.heldRequests, offer.requests, (n) => why(frBilling.change.planGivenBack(n)));
      } else if (purchase.userId !== null && purchase.heldRequests > 0)
        await addExtra(tx, now, purchase.userId, purchase.heldRequests, why(frBilling.change.heldGivenBack(purchase.heldRequests)));
      else await noteBillingChange(tx, now, purchase.userId, why(frBilling.change.disputeWon));
      await tx.update(purchases).set({ status: "completed", heldRequests: 0 }).where(eq(purchases.id, purchase.id));
    } else if (lost && purchase.status !== "refunded") {
      await noteBillingChange(tx, now, purchase.userId, why("litige perdu, achat repris."));
      await takeBack({ ...deps, db: tx }, now, purchase, subId !== null, why);
    }
  });
}
