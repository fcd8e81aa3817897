import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { immediate } from "../db/client.ts";
import { purchases, stripeEvents, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { addMonths } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { PLAN_ALLOWANCE } from "../users/users.quota.ts";
import { fulfil } from "./fulfilment.service.ts";
import { dropPendingChanges, periodEnd, setPlan } from "./plan.service.ts";
import { productFor } from "./pricing.constants.ts";
import { requireStripe, stripeCall } from "./stripe.client.ts";

/** Verifies the signature (the only auth of this route) and parses the event. */
export async function verifyEvent(deps: Deps, body: string, signature: string | undefined): Promise<Stripe.Event> {
  const stripe = requireStripe(deps.stripe);
  const secret = deps.config.stripe.webhookSecret;
  if (!secret) throw new AppError("PAYMENTS_DISABLED");
  if (!signature) throw new AppError("WEBHOOK_SIGNATURE_INVALID");
  try {
    // constructEvent (sync) throws under Bun: its crypto is SubtleCrypto, async only.
    return await stripe.webhooks.constructEventAsync(body, signature, secret);
  } catch {
    throw new AppError("WEBHOOK_SIGNATURE_INVALID");
  }
}

/**
 * Handles an event once. The event id is recorded after a successful
 * handling, so a failure (500) lets Stripe retry; every handler is idempotent
 * on its own (fulfilment claim, unique invoice id), so two deliveries racing
 * each other still credit once.
 */
export async function handleEvent(deps: Deps, event: Stripe.Event): Promise<{ duplicate: boolean }> {
  const { db, clock } = deps;
  if (db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).get()) return { duplicate: true };
  await dispatch(deps, event);
  db.insert(stripeEvents).values({ id: event.id, type: event.type, receivedAt: clock.now() }).onConflictDoNothing().run();
  return { duplicate: false };
}

async function dispatch(deps: Deps, event: Stripe.Event): Promise<void> {
  const { log } = deps;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      await fulfil(deps, event.data.object);
      return;
    case "checkout.session.async_payment_failed":
      log.warn("checkout payment failed", { session: event.data.object.id });
      return;
    case "invoice.paid":
      invoicePaid(deps, event.data.object);
      return;
    case "invoice.payment_failed":
      log.warn("invoice payment failed", { invoice: event.data.object.id, subscription: invoiceSubscription(event.data.object) });
      return;
    case "customer.subscription.updated": {
      const sub = event.data.object;
      if (["canceled", "unpaid", "incomplete_expired"].includes(sub.status)) endSubscription(deps, sub.id);
      return;
    }
    case "customer.subscription.deleted":
      endSubscription(deps, event.data.object.id);
      return;
    case "charge.refunded":
      await chargeRefunded(deps, event.data.object);
      return;
    default:
      log.debug("stripe event ignored", { type: event.type });
  }
}

function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === "string" ? sub : (sub?.id ?? null);
}

/**
 * Renewal of a Stripe-driven plan: the monthly allowance is reset once per
 * invoice (the unique invoice id of its purchase row is the claim). The first
 * invoice of a subscription is credited by the checkout fulfilment instead.
 */
function invoicePaid(deps: Deps, invoice: Stripe.Invoice): void {
  const { db, clock, log } = deps;
  if (invoice.billing_reason === "subscription_create") return;
  const subId = invoiceSubscription(invoice);
  if (!subId) return;
  const now = clock.now();
  immediate(db, () => {
    const user = db.select().from(users).where(eq(users.stripeSubscriptionId, subId)).get();
    if (!user || (user.subscriptionType !== "basic" && user.subscriptionType !== "pro")) {
      log.warn("paid invoice without a matching subscriber", { invoice: invoice.id, subscription: subId });
      return;
    }
    const cycle = user.billingCycle ?? "monthly";
    const claim = db
      .insert(purchases)
      .values({
        userId: user.id, productType: productFor(user.subscriptionType, cycle), invoiceId: invoice.id,
        amountCents: invoice.amount_paid, currency: invoice.currency, createdAt: now,
      })
      .onConflictDoNothing()
      .returning()
      .get();
    if (!claim || invoice.billing_reason !== "subscription_cycle") return;
    const line = invoice.lines?.data?.[0]?.period;
    const start = line?.start ? new Date(line.start * 1000) : now;
    const end = line?.end ? new Date(line.end * 1000) : periodEnd(now, cycle);
    db.update(users)
      .set({ planQueries: PLAN_ALLOWANCE[user.subscriptionType], quotaRenewsAt: addMonths(start, 1), periodEndsAt: end, updatedAt: now })
      .where(eq(users.id, user.id))
      .run();
    log.info("subscription renewed", { user: user.id, invoice: invoice.id });
  });
}

/** The subscription is over at Stripe (cancelled at period end, or unpaid): the account is kept, expired. */
function endSubscription(deps: Deps, subId: string): void {
  const { db, clock } = deps;
  const now = clock.now();
  immediate(db, () => {
    const user = db.select().from(users).where(eq(users.stripeSubscriptionId, subId)).get();
    if (!user) return;
    setPlan(db, now, user.id, { plan: "expired" }, { stripeSubscriptionId: null });
    dropPendingChanges(db, now, user.id);
  });
}

/**
 * A full refund marks its purchase refunded (the admin revenue leaves it
 * out). Access is not taken back automatically: the operator decides.
 */
async function chargeRefunded(deps: Deps, charge: Stripe.Charge): Promise<void> {
  const { db, log } = deps;
  const stripe = requireStripe(deps.stripe);
  const pi = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  if (!pi || !charge.refunded) return;
  const payments = await stripeCall(log, "invoicePayments.list", () =>
    stripe.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: pi }, limit: 1 }),
  );
  const invoice = payments.data[0]?.invoice;
  const invoiceId = typeof invoice === "string" ? invoice : invoice?.id;
  if (invoiceId) {
    db.update(purchases).set({ status: "refunded" }).where(eq(purchases.invoiceId, invoiceId)).run();
    return;
  }
  const sessions = await stripeCall(log, "checkout.sessions.list", () => stripe.checkout.sessions.list({ payment_intent: pi, limit: 1 }));
  const sessionId = sessions.data[0]?.id;
  if (sessionId) db.update(purchases).set({ status: "refunded" }).where(eq(purchases.checkoutSessionId, sessionId)).run();
  else log.warn("refund of an unknown payment", { payment_intent: pi });
}
