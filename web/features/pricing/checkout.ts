import { fr } from "../../i18n/fr.ts";
import { api, ApiError, unwrap } from "../../lib/api.ts";
import type { CheckoutInput } from "../../lib/api-types.ts";

/** docs/PRODUCT.md#payment timers: the checkout call gives up after 15 s; one retry, 2 s later. */
export const CHECKOUT_TIMEOUT_MS = 15_000;
export const CHECKOUT_RETRY_DELAY_MS = 2_000;

export class CheckoutTimeout extends Error {}
export class CheckoutNetworkError extends Error {}

/** One call, aborted after 15 s; a fetch that ignores the abort still loses the race. */
async function attempt(input: CheckoutInput): Promise<string> {
  const ctrl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ctrl.abort();
      reject(new CheckoutTimeout());
    }, CHECKOUT_TIMEOUT_MS);
  });
  try {
    const call = unwrap(api.stripe["create-payment-intent"].$post({ json: input }, { init: { signal: ctrl.signal } }));
    const body = await Promise.race([call, timeout]);
    return body.checkout_url;
  } catch (err) {
    if (err instanceof ApiError || err instanceof CheckoutTimeout) throw err;
    if (ctrl.signal.aborted) throw new CheckoutTimeout();
    // fetch rejects (TypeError) when the network is down, and unwrap throws when a 200 is not JSON.
    throw new CheckoutNetworkError(String(err));
  } finally {
    clearTimeout(timer);
  }
}

const transient = (err: unknown) => err instanceof CheckoutTimeout || err instanceof CheckoutNetworkError;

/** Creates the Checkout Session; a first network or timeout failure is retried once after 2 s (docs/PRODUCT.md#payment). */
export async function createCheckout(input: CheckoutInput, onRetry?: () => void): Promise<string> {
  try {
    return await attempt(input);
  } catch (err) {
    if (!transient(err)) throw err;
    onRetry?.();
    await new Promise((r) => setTimeout(r, CHECKOUT_RETRY_DELAY_MS));
    return attempt(input);
  }
}

/** The alert of docs/PRODUCT.md#payment for a failed checkout creation. */
export function checkoutErrorMessage(err: unknown): string {
  const t = fr.pricing.checkoutErrors;
  if (err instanceof CheckoutTimeout) return t.timeout;
  if (err instanceof CheckoutNetworkError) return t.network;
  if (err instanceof ApiError) {
    if (err.status === 401) return t.unauthorized;
    if (err.status === 402) return t.paymentConfig;
    if (err.status >= 500) return t.server;
  }
  return t.default;
}
