import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { immediate } from "../db/client.ts";
import { checkoutSessions, fulfilments, PRODUCT_TYPES, promoCodes, purchases, referrals, users } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { OFFERS, type Product, REFERRAL_BONUS } from "./pricing.constants.ts";
import { dropPendingChanges, setPlan } from "./plan.service.ts";
import { requireStripe, stripeCall } from "./stripe.client.ts";

export type FulfilOutcome = { fulfilled: boolean; reason?: "unpaid" | "already" | "unknown" };

function idOf(v: string | { id: string } | null | undefined): string | null {
  return typeof v === "string" ? v : (v?.id ?? null);
}

export function isPaid(session: Stripe.Checkout.Session): boolean {
  return session.payment_status === "paid" || session.payment_status === "no_payment_required";
}

/**
 * Credits a paid Checkout Session exactly once, from the webhook or the
 * status poll, whichever comes first. The claim row is inserted first (ON
 * CONFLICT DO NOTHING RETURNING) in the same immediate transaction as every
 * credit, so a second caller finds the claim and credits nothing.
 */
export async function fulfil(deps: Deps, sessionOrId: string | Stripe.Checkout.Session): Promise<FulfilOutcome> {
  const { db, clock, log } = deps;
  const session =
    typeof sessionOrId === "string"
      ? await stripeCall(log, "checkout.sessions.retrieve", () => requireStripe(deps.stripe).checkout.sessions.retrieve(sessionOrId))
      : sessionOrId;
  if (!isPaid(session)) return { fulfilled: false, reason: "unpaid" };
  const now = clock.now();

  return immediate(db, (): FulfilOutcome => {
    const local = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id)).get();
    const product = (local?.productType ?? session.metadata?.product_type) as Product | undefined;
    if (!product || !PRODUCT_TYPES.includes(product)) {
      log.warn("checkout session not made by Unisson", { session: session.id });
      return { fulfilled: false, reason: "unknown" };
    }
    const metaUser = Number(session.metadata?.user_id);
    const candidate = local?.userId ?? (Number.isInteger(metaUser) ? metaUser : null);
    const user = candidate ? db.select().from(users).where(eq(users.id, candidate)).get() : undefined;
    const userId = user?.id ?? null;

    const claim = db
      .insert(fulfilments)
      .values({ checkoutSessionId: session.id, userId, productType: product, fulfilledAt: now })
      .onConflictDoNothing()
      .returning()
      .get();
    if (!claim) return { fulfilled: false, reason: "already" };

    db.insert(purchases)
      .values({
        userId, productType: product, checkoutSessionId: session.id, invoiceId: idOf(session.invoice),
        amountCents: session.amount_total ?? 0, currency: session.currency ?? "eur", createdAt: now,
      })
      .onConflictDoNothing()
      .run();
    if (local?.promoCode) {
      db.update(promoCodes).set({ uses: sql`${promoCodes.uses} + 1` }).where(eq(promoCodes.code, local.promoCode)).run();
    }
    // A deleted account: the money is recorded, there is nobody to credit.
    if (!user) return { fulfilled: true };

    const offer = OFFERS[product];
    if (offer.plan) {
      setPlan(db, now, user.id, { plan: offer.plan, cycle: offer.billing_cycle }, {
        stripeSubscriptionId: idOf(session.subscription), stripeCustomerId: idOf(session.customer) ?? user.stripeCustomerId,
      });
      dropPendingChanges(db, now, user.id);
      if (local?.referrerId) rewardReferral(deps, now, local.referrerId, user.id, session.id);
    } else {
      db.update(users).set({ extraQueries: sql`${users.extraQueries} + ${offer.requests}`, updatedAt: now }).where(eq(users.id, user.id)).run();
    }
    log.info("checkout fulfilled", { session: session.id, user: user.id, product });
    return { fulfilled: true };
  });
}

/** +10 extra requests to both sides, once per referee (the unique referee row decides). */
function rewardReferral(deps: Deps, now: Date, referrerId: number, refereeId: number, sessionId: string): void {
  const { db } = deps;
  if (referrerId === refereeId) return;
  const referrer = db.select({ id: users.id }).from(users).where(eq(users.id, referrerId)).get();
  if (!referrer) return;
  const row = db
    .insert(referrals)
    .values({ referrerId, refereeId, checkoutSessionId: sessionId, bonus: REFERRAL_BONUS, createdAt: now })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!row) return;
  for (const id of [referrerId, refereeId]) {
    db.update(users).set({ extraQueries: sql`${users.extraQueries} + ${REFERRAL_BONUS}`, updatedAt: now }).where(eq(users.id, id)).run();
  }
}
