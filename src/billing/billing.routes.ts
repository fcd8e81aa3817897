import { frBilling } from "../i18n/fr-billing.ts";
import { Hono } from "hono";
import { requireUser } from "../auth/require-user.ts";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { validate } from "../lib/validate.ts";
import { effectivePlan } from "../users/quota.ts";
import { changeBody, checkoutBody, productParam, promoBody, sessionParam } from "./billing.schemas.ts";
import { cancelChange, requestChange } from "./change.service.ts";
import { checkoutStatus, createCheckout } from "./checkout.service.ts";
import { formatEuros, OFFERS, PRODUCT_ORDER, REFERRAL_BONUS } from "../contracts/pricing.ts";
import { ensureReferralCode, type ResolvedPromo, resolvePromo, successfulReferrals } from "./promo.service.ts";
import { subscriptionStatus, upgradeQuote } from "./subscription.service.ts";
import { handleEvent, verifyEvent } from "./webhook.service.ts";

/** The five offers with their French labels, straight from the constants module. */
export const pricingRoutes = new Hono<AppEnv>().get("/products", (c) => {
  const products = PRODUCT_ORDER.map((id) => {
    const o = OFFERS[id];
    return {
      ...o,
      price: o.price_cents / 100,
      price_label: formatEuros(o.price_cents),
      monthly_equivalent_label: o.monthly_equivalent_cents === null ? null : formatEuros(o.monthly_equivalent_cents),
      savings_label: o.savings_cents === null ? null : formatEuros(o.savings_cents),
    };
  });
  return c.json({ products });
});

export const stripeRoutes = new Hono<AppEnv>()
  .get("/upgrade-price/:product_type", requireUser, validate("param", productParam), (c) => {
    return c.json(upgradeQuote(c.var.deps, c.var.user, c.req.valid("param").product_type));
  })
  .post("/create-payment-intent", requireUser, validate("json", checkoutBody), async (c) => {
    return c.json(await createCheckout(c.var.deps, c.var.user, c.req.valid("json")));
  })
  .get("/checkout-status/:session_id", requireUser, validate("param", sessionParam), async (c) => {
    return c.json(await checkoutStatus(c.var.deps, c.var.user, c.req.valid("param").session_id));
  })
  // No session: the Stripe signature over the raw body is the authentication.
  .post("/webhook", async (c) => {
    const body = await c.req.text();
    const event = await verifyEvent(c.var.deps, body, c.req.header("stripe-signature"));
    const { duplicate } = await handleEvent(c.var.deps, event);
    return c.json({ received: true, duplicate });
  });

export const subscriptionRoutes = new Hono<AppEnv>()
  .get("/status", requireUser, async (c) => c.json(await subscriptionStatus(c.var.deps, c.var.user)))
  .post("/request-change", requireUser, validate("json", changeBody), async (c) => {
    return c.json(await requestChange(c.var.deps, c.var.user, c.req.valid("json")));
  })
  .delete("/cancel-change", requireUser, async (c) => c.json(await cancelChange(c.var.deps, c.var.user)));

export const promoRoutes = new Hono<AppEnv>()
  .get("/my-code", requireUser, async (c) => {
    const { db, clock } = c.var.deps;
    const user = c.var.user;
    const now = clock.now();
    const pro = effectivePlan(user, now) === "pro";
    const info: ReferralInfo = {
      has_code: pro,
      code: pro ? await ensureReferralCode(db, now, user) : null,
      successful_referrals: await successfulReferrals(db, user.id),
      bonus_per_referral: REFERRAL_BONUS,
      message: pro ? frBilling.user.referralShare(REFERRAL_BONUS) : frBilling.user.referralGoPro(REFERRAL_BONUS),
    };
    return c.json(info);
  })
  .post("/validate", requireUser, validate("json", promoBody), async (c) => {
    const { db, clock } = c.var.deps;
    return c.json(await promoValidation(async () => await resolvePromo(db, clock.now(), c.var.user, c.req.valid("json").code)));
  });

type ReferralInfo = { has_code: boolean; code: string | null; successful_referrals: number; bonus_per_referral: number; message: string };
type PromoValidation = { valid: boolean; message: string; code: string | null; kind: "referral" | "coupon" | null; percent_off: number | null };

/** An unknown or unusable code is an answer, not an error: the promo field shows why. One shape for both. */
async function promoValidation(resolve: () => Promise<ResolvedPromo>): Promise<PromoValidation> {
  try {
    const promo = await resolve();
    return { valid: true, message: promo.message, code: promo.code, kind: promo.kind, percent_off: promo.kind === "coupon" ? promo.percentOff : null };
  } catch (e) {
    if (e instanceof AppError && e.code === "PROMO_INVALID") return { valid: false, message: e.message, code: null, kind: null, percent_off: null };
    throw e;
  }
}
