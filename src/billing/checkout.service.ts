import { first } from "../db/transaction.ts";
import { frDetails } from "../i18n/fr-details.ts";
import { and, eq, isNull } from "drizzle-orm";
import type Stripe from "stripe";
import { checkoutSessions, type UserRow, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { effectivePlan } from "../users/quota.ts";
import { fulfil } from "./fulfilment.service.ts";
import { OFFERS, packAvailableFor, type Product, productFor } from "../contracts/pricing.ts";
import { resolvePromo } from "./promo.service.ts";
import { requireStripe, stripeCall } from "./stripe-client.ts";
import { priceData } from "./stripe-products.ts";

export type CheckoutInput = { product_type: Product; is_annual: boolean; origin_url: string; promo_code?: string | null };

/** `is_annual` turns a monthly plan into its annual offer; the pack has no cycle. */
function resolveProduct(product: Product, isAnnual: boolean): Product {
  const offer = OFFERS[product];
  if (!offer.plan) return product;
  return productFor(offer.plan, isAnnual || offer.billing_cycle === "annual" ? "annual" : "monthly");
}

/** Only the product's own origin may be a return address (no open redirect through Stripe). */
function checkReturnOrigin(publicUrl: string, originUrl: string): void {
  let origin: string;
  try {
    origin = new URL(originUrl).origin;
  } catch {
    throw new AppError("RETURN_ORIGIN_INVALID");
  }
  if (origin !== new URL(publicUrl).origin) throw new AppError("RETURN_ORIGIN_INVALID");
}

async function ensureCustomer(deps: Deps, stripe: Stripe, user: UserRow): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customer = await stripeCall(deps.log, "customers.create", () =>
    stripe.customers.create({ email: user.email, name: `${user.firstName} ${user.lastName}`, metadata: { user_id: String(user.id) } }),
  );
  // Two first checkouts at once: the first stored customer wins, the other is left unused at Stripe.
  await deps.db
    .update(users)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)));
  return (await first(deps.db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, user.id))))?.id ?? customer.id;
}

/**
 * A Stripe Checkout Session: mode subscription for plans, payment for the
 * pack. Subscribers change plan through request-change, never a second
 * subscription; the pack is for subscribers only.
 */
export async function createCheckout(deps: Deps, user: UserRow, input: CheckoutInput): Promise<{ checkout_url: string }> {
  const { db, clock, config, log } = deps;
  const stripe = requireStripe(deps.stripe);
  checkReturnOrigin(config.publicUrl, input.origin_url);
  const now = clock.now();
  const product = resolveProduct(input.product_type, input.is_annual);
  const offer = OFFERS[product];
  const plan = effectivePlan(user, now);
  // A plan an operator set (no Stripe subscription) may be replaced by a paid one; a Stripe subscriber changes plan instead.
  if (offer.plan && (plan === "basic" || plan === "pro") && user.stripeSubscriptionId) throw new AppError("SUBSCRIPTION_EXISTS");
  if (!offer.plan && !packAvailableFor(plan)) throw new AppError("PACK_SUBSCRIBERS_ONLY");

  const promo = input.promo_code?.trim() ? await resolvePromo(db, now, user, input.promo_code) : null;
  const couponId = promo?.kind === "coupon" ? promo.stripeCouponId : null;
  if (promo?.kind === "coupon" && !couponId) {
    throw new AppError("PROMO_INVALID", frDetails.promo.notUsableAtCheckout);
  }
  // The referral bonus rewards a premium plan; on a pack the code simply does nothing.
  const referrerId = promo?.kind === "referral" && offer.plan ? promo.referrerId : null;

  const customer = await ensureCustomer(deps, stripe, user);
  if (offer.plan) await expireOpenSubscriptionSessions(deps, stripe, customer);
  const metadata = { user_id: String(user.id), product_type: product };
  const session = await stripeCall(log, "checkout.sessions.create", async () =>
    stripe.checkout.sessions.create({
      mode: offer.plan ? "subscription" : "payment",
      customer,
      client_reference_id: String(user.id),
      line_items: [{ price_data: await priceData(stripe, log, product), quantity: 1 }],
      success_url: `${config.publicUrl}/?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${config.publicUrl}/`,
      locale: "fr",
      metadata,
      ...(offer.plan ? { subscription_data: { metadata } } : {}),
      ...(couponId ? { discounts: [{ coupon: couponId }] } : {}),
    }),
  );
  if (!session.url) throw new AppError("STRIPE_UNAVAILABLE");
  await db
    .insert(checkoutSessions)
    .values({ id: session.id, userId: user.id, productType: product, promoCode: promo?.code ?? null, referrerId, createdAt: now });
  return { checkout_url: session.url };
}

/**
 * One subscription per customer: a new subscription checkout first expires
 * the customer's other open subscription sessions (another tab, an earlier
 * attempt), so two cannot both be paid. A session paid meanwhile is caught
 * at fulfilment (subscription-sync: the second is cancelled and refunded).
 */
async function expireOpenSubscriptionSessions(deps: Deps, stripe: Stripe, customer: string): Promise<void> {
  const open = await stripeCall(deps.log, "checkout.sessions.list", () => stripe.checkout.sessions.list({ customer, status: "open", limit: 100 }));
  for (const s of open.data) {
    if (s.mode !== "subscription") continue;
    try {
      await stripe.checkout.sessions.expire(s.id);
      deps.log.info("open subscription checkout expired", { session: s.id });
    } catch (e) {
      // Paid a moment ago: no longer open; the fulfilment's duplicate check takes over.
      deps.log.warn("open subscription checkout not expired", { session: s.id, error: e instanceof Error ? e.message : String(e) });
    }
  }
}

/** The poll after the return from Stripe: only the session's own user; fulfils when paid. */
export async function checkoutStatus(deps: Deps, user: UserRow, sessionId: string) {
  const stripe = requireStripe(deps.stripe);
  const row = await first(deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)));
  // Someone else's session reads as unknown: its existence is not revealed.
  if (!row || row.userId !== user.id) throw new AppError("CHECKOUT_NOT_FOUND");
  const session = await stripeCall(deps.log, "checkout.sessions.retrieve", () => stripe.checkout.sessions.retrieve(sessionId));
  if (session.payment_status === "paid" || session.payment_status === "no_payment_required") await fulfil(deps, session);
  return { payment_status: session.payment_status, status: session.status };
}
