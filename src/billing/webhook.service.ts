import { first } from "../db/transaction.ts";
import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { stripeEvents } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { fulfil } from "./fulfilment.service.ts";
import { chargeRefunded, disputeChanged } from "./refund.service.ts";
import { requireStripe } from "./stripe-client.ts";
import { invoiceSubscription, syncSubscription } from "./subscription-sync.service.ts";

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
  if (await first(db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)))) return { duplicate: true };
  await dispatch(deps, event);
  await db.insert(stripeEvents).values({ id: event.id, type: event.type, receivedAt: clock.now() }).onConflictDoNothing();
  return { duplicate: false };
}

/** The subscription an event is about, whatever its object. */
function subscriptionOf(event: Stripe.Event): string | null {
  const o = event.data.object as { object?: string; id?: string };
  if (o.object === "subscription") return o.id ?? null;
  if (o.object === "invoice") return invoiceSubscription(o as Stripe.Invoice);
  return null;
}

async function dispatch(deps: Deps, event: Stripe.Event): Promise<void> {
  const { log } = deps;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      await fulfil(deps, event.data.object.id);
      return;
    case "checkout.session.async_payment_failed":
      log.warn("checkout payment failed", { session: event.data.object.id });
      return;
    case "invoice.payment_failed":
      log.warn("invoice payment failed", { invoice: event.data.object.id, subscription: invoiceSubscription(event.data.object) });
      break;
    case "charge.refunded":
      await chargeRefunded(deps, event.data.object.id);
      return;
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
      await disputeChanged(deps, event.data.object.id);
      return;
  }
  // Every subscription-related event: fetch the subscription again and apply what Stripe says now.
  const subId = SUBSCRIPTION_EVENTS.has(event.type) ? subscriptionOf(event) : null;
  if (subId) await syncSubscription(deps, subId, "stripe", event.id);
  else log.debug("stripe event ignored", { type: event.type });
}

const SUBSCRIPTION_EVENTS = new Set<string>([
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
  "customer.subscription.pending_update_applied",
  "customer.subscription.pending_update_expired",
]);
