import { first } from "../db/transaction.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { transaction } from "../db/transaction.ts";
import { checkoutSessions, fulfilments, PRODUCT_TYPES, promoCodes, purchases, referrals, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { addExtra } from "./entitlements.ts";
import { OFFERS, type Product, REFERRAL_BONUS } from "../contracts/pricing.ts";
import { requireStripe, stripeCall } from "./stripe-client.ts";
import {
  applySubscriptionState,
  cancelNow,
  fetchSubscriptionState,
  idOf,
  settleDuplicate,
  type SubscriptionState,
  type SyncOutcome,
} from "./subscription-sync.service.ts";

export type FulfilOutcome = { fulfilled: boolean; reason?: "unpaid" | "already" | "unknown" };

function isPaid(session: Stripe.Checkout.Session): boolean {
  return session.payment_status === "paid" || session.payment_status === "no_payment_required";
}

/**
 * Credits a paid Checkout Session exactly once, from the webhook or the
 * status poll, whichever comes first. The session is read from Stripe (an
 * event's copy may be stale), and for a subscription so is the subscription:
 * the plan is whatever Stripe's subscription says (subscription-sync). The
 * claim row is inserted first (ON CONFLICT DO NOTHING RETURNING) in the same
 * transaction as every credit, so a second caller credits nothing.
 */
export async function fulfil(deps: Deps, sessionOrId: string | Stripe.Checkout.Session): Promise<FulfilOutcome> {
  const { db, clock, log } = deps;
  const stripe = requireStripe(deps.stripe);
  // An id (a webhook's news) is read from Stripe; a session object must come fresh from Stripe (the status poll).
  const session =
    typeof sessionOrId === "string" ? await stripeCall(log, "checkout.sessions.retrieve", () => stripe.checkout.sessions.retrieve(sessionOrId)) : sessionOrId;
  if (!isPaid(session)) return { fulfilled: false, reason: "unpaid" };
  const subId = idOf(session.subscription);
  const state = subId ? await fetchSubscriptionState(deps, subId) : null;
  const now = clock.now();

  let sync: SyncOutcome | null = null;
  let nobody = false;
  const outcome = await transaction(db, async (tx): Promise<FulfilOutcome> => {
    const local = await first(tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)));
    const product = (local?.productType ?? session.metadata?.product_type) as Product | undefined;
    if (!product || !PRODUCT_TYPES.includes(product)) {
      log.warn("checkout session not made by Unisson", { session: session.id });
      return { fulfilled: false, reason: "unknown" };
    }
    const metaUser = Number(session.metadata?.user_id);
    const candidate = local?.userId ?? (Number.isInteger(metaUser) ? metaUser : null);
    const user = candidate ? await first(tx.select().from(users).where(eq(users.id, candidate))) : undefined;
    const userId = user?.id ?? null;

    const claim = await first(
      tx.insert(fulfilments).values({ checkoutSessionId: session.id, userId, productType: product, fulfilledAt: now }).onConflictDoNothing().returning(),
    );
    if (!claim) return { fulfilled: false, reason: "already" };

    await tx
      .insert(purchases)
      .values({
        userId,
        productType: product,
        checkoutSessionId: session.id,
        invoiceId: idOf(session.invoice),
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? "eur",
        createdAt: now,
      })
      .onConflictDoNothing();
    if (local?.promoCode) {
      await tx
        .update(promoCodes)
        .set({ uses: sql`${promoCodes.uses} + 1` })
        .where(eq(promoCodes.code, local.promoCode));
    }
    // A deleted account: the money is recorded, there is nobody to credit (and its subscription is stopped below).
    if (!user) {
      nobody = true;
      return { fulfilled: true };
    }

    const offer = OFFERS[product];
    if (offer.plan && state) {
      sync = await applySubscriptionState({ ...deps, db: tx }, { ...state, user }, "stripe", session.id);
      const now2 = await first(tx.select({ sub: users.stripeSubscriptionId }).from(users).where(eq(users.id, user.id)));
      if (local?.referrerId && now2?.sub === subId) await rewardReferral({ ...deps, db: tx }, now, local.referrerId, user.id, session.id);
    } else if (!offer.plan) {
      await addExtra(tx, now, user.id, offer.requests, {
        actor: "stripe",
        action: "pack",
        detail: frBilling.change.packPaid(offer.name, offer.requests),
        stripeRef: session.id,
      });
    }
    log.info("checkout fulfilled", { session: session.id, user: user.id, product });
    return { fulfilled: true };
  });
  if (sync === "duplicate" && state) await settleDuplicate(deps, state as SubscriptionState, "stripe");
  if (nobody && subId) {
    // No service without an account: its subscription must not renew.
    await cancelNow(deps, subId);
    log.warn("subscription of a deleted account cancelled", { session: session.id, subscription: subId });
  }
  return outcome;
}

/** +10 extra requests to both sides, once per referee (the unique referee row decides). */
async function rewardReferral(deps: Deps, now: Date, referrerId: number, refereeId: number, sessionId: string): Promise<void> {
  const { db } = deps;
  if (referrerId === refereeId) return;
  const referrer = await first(db.select({ id: users.id }).from(users).where(eq(users.id, referrerId)));
  if (!referrer) return;
  const row = await first(
    db
      .insert(referrals)
      .values({ referrerId, refereeId, checkoutSessionId: sessionId, bonus: REFERRAL_BONUS, createdAt: now })
      .onConflictDoNothing()
      .returning(),
  );
  if (!row) return;
  for (const id of [referrerId, refereeId]) {
    await addExtra(db, now, id, REFERRAL_BONUS, {
      actor: "stripe",
      action: "referral",
      detail: frBilling.change.referralBonus(REFERRAL_BONUS),
      stripeRef: sessionId,
    });
  }
}
