import Stripe from "stripe";
import type { Config } from "../config.ts";
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { APP_VERSION } from "../contracts/version.ts";

/** The SPA's checkout call gives up after 15 s: a Stripe call must fail before that, with room for one retry. */
const STRIPE_TIMEOUT_MS = 6_000;
/** POSTs are retried with the SDK's idempotency keys, so a retry never creates a second object. */
const STRIPE_RETRIES = 1;

/**
 * The real SDK, or null when no STRIPE_SECRET_KEY is set (payments disabled:
 * checkout answers 402, operators assign plans with the CLI). STRIPE_API_BASE
 * points it elsewhere (tests' local fake, a proxy).
 */
export function createStripe(config: Config): Stripe | null {
  const key = config.stripe.secretKey;
  if (!key) return null;
  const base = config.stripe.apiBase ? new URL(config.stripe.apiBase) : undefined;
  return new Stripe(key, {
    maxNetworkRetries: STRIPE_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: "Unisson", version: APP_VERSION },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

export function requireStripe(stripe: Stripe | null): Stripe {
  if (!stripe) throw new AppError("PAYMENTS_DISABLED");
  return stripe;
}

/** Turns an SDK failure into the house's French error; a declined card is the user's to fix, the rest is ours. */
export async function stripeCall<T>(log: Logger, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError) throw e;
    log.warn("stripe call failed", { call: what, error: e instanceof Error ? e.message : String(e) });
    if (e instanceof Stripe.errors.StripeCardError) throw new AppError("PAYMENT_DECLINED");
    throw new AppError("STRIPE_UNAVAILABLE");
  }
}

export function isStripeMissing(e: unknown): boolean {
  return e instanceof Stripe.errors.StripeInvalidRequestError && e.code === "resource_missing";
}
