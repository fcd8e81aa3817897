import { useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { storedToken } from "../../lib/api.ts";
import { checkoutErrorMessage, createCheckout } from "./checkout.ts";
import { OFFERS, type Product, type SubscriptionProduct } from "./offers.ts";

export type Notice = { kind: "error" | "success" | "info"; text: string } | null;

/** Where the browser goes for payment; a test replaces `to` to stay on the page. */
export const redirect = { to: (url: string) => window.location.assign(url) };

/**
 * "Buy" on a card or on the pack: signed-out users are told to sign in, a
 * basic/pro subscriber buying a subscription gets the change-plan flow (docs/PRODUCT.md#plan-changes), anyone else goes to Stripe Checkout.
 */
export function usePurchase({
  user,
  promoCode,
  notify,
  onChangeFlow,
}: {
  user: PublicUser | null;
  promoCode: string | undefined;
  notify(n: Notice): void;
  onChangeFlow(product: SubscriptionProduct): void;
}) {
  const [busy, setBusy] = useState<Product | null>(null);

  async function buy(product: Product) {
    if (!user || !storedToken()) return notify({ kind: "error", text: fr.pricing.loginRequired });
    const subscriber = user.subscription_type === "basic" || user.subscription_type === "pro";
    if (subscriber && product !== "token_pack_10") return onChangeFlow(product);
    setBusy(product);
    notify({ kind: "info", text: fr.pricing.redirecting });
    try {
      const url = await createCheckout(
        {
          product_type: product,
          is_annual: OFFERS[product].billing_cycle === "annual",
          origin_url: window.location.origin,
          ...(promoCode ? { promo_code: promoCode } : {}),
        },
        () => notify({ kind: "info", text: fr.pricing.retrying }),
      );
      redirect.to(url);
    } catch (err) {
      notify({ kind: "error", text: checkoutErrorMessage(err) });
      setBusy(null);
    }
  }

  return { buy, busy };
}
