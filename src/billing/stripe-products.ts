import type Stripe from "stripe";
import type { Logger } from "../lib/log.ts";
import { CURRENCY, OFFERS, type Product } from "../contracts/pricing.ts";
import { isStripeMissing, stripeCall } from "./stripe-client.ts";

/**
 * Prices live in pricing.ts, not in the Stripe dashboard: every
 * Stripe call sends `price_data` with the amount from there. Subscription
 * updates and schedules need a Stripe Product id for that, so each plan has
 * one with a fixed id, created on first need.
 */
const PRODUCT_IDS = { basic: "unisson_basic", pro: "unisson_pro", pack: "unisson_token_pack_10" } as const;

/** The paid plan a Stripe product id stands for (null: not one of ours). */
export function planOfProduct(productId: string | null): "basic" | "pro" | null {
  if (productId === PRODUCT_IDS.basic) return "basic";
  if (productId === PRODUCT_IDS.pro) return "pro";
  return null;
}

// Module state: product ids keyed by the Stripe client (deps.stripe), so each app (and test) has its own.
const known = new WeakMap<Stripe, Map<string, Promise<string>>>();

function productKey(product: Product): keyof typeof PRODUCT_IDS {
  return OFFERS[product].plan ?? "pack";
}

async function ensureStripeProduct(stripe: Stripe, log: Logger, product: Product): Promise<string> {
  const key = productKey(product);
  const id = PRODUCT_IDS[key];
  let cache = known.get(stripe);
  if (!cache) known.set(stripe, (cache = new Map()));
  let pending = cache.get(id);
  if (!pending) {
    pending = stripeCall(log, "products.ensure", async () => {
      try {
        return (await stripe.products.retrieve(id)).id;
      } catch (e) {
        if (!isStripeMissing(e)) throw e;
        const name = key === "pack" ? OFFERS.token_pack_10.name : `Unisson ${OFFERS[`subscription_${key}`].name}`;
        return (await stripe.products.create({ id, name })).id;
      }
    });
    // A failed lookup is retried on the next call rather than remembered.
    pending.catch(() => cache.delete(id));
    cache.set(id, pending);
  }
  return pending;
}

/** The inline price of an offer, from the constants module. */
export async function priceData(stripe: Stripe, log: Logger, product: Product) {
  const offer = OFFERS[product];
  const productId = await ensureStripeProduct(stripe, log, product);
  return {
    currency: CURRENCY,
    product: productId,
    unit_amount: offer.price_cents,
    ...(offer.interval ? { recurring: { interval: offer.interval } } : {}),
  };
}
