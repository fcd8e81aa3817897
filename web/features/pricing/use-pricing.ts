import { useCallback, useEffect, useState } from "react";
import type { SubscriptionInfo, UpgradeQuote } from "../../lib/api-types.ts";
import { api, unwrap } from "../../lib/api.ts";
import { OFFERS, type Product, SUBSCRIPTION_PRODUCTS, type SubscriptionProduct } from "./offers.ts";

/**
 * What the overlay shows, loaded when it opens: the products (prices come from
 * the shared price module; the API's list can only override an amount), one
 * upgrade quote per subscription (a failed quote is just not shown, docs/PRODUCT.md#pricing-overlay) and the subscription status.
 */
export function usePricing() {
  const [prices, setPrices] = useState<Partial<Record<Product, number>>>({});
  const [quotes, setQuotes] = useState<Partial<Record<SubscriptionProduct, UpgradeQuote>>>({});
  const [status, setStatus] = useState<SubscriptionInfo | null>(null);

  const loadStatus = useCallback(async () => {
    try {
      setStatus(await unwrap(api.subscription.status.$get()));
    } catch {
      setStatus(null);
    }
  }, []);

  const loadQuotes = useCallback(async () => {
    const entries = await Promise.all(
      SUBSCRIPTION_PRODUCTS.map(async (p) => {
        try {
          const q = await unwrap(api.stripe["upgrade-price"][":product_type"].$get({ param: { product_type: p } }));
          return [p, q] as const;
        } catch {
          return null; // ignored per product
        }
      }),
    );
    setQuotes(Object.fromEntries(entries.filter((e) => e !== null)));
  }, []);

  useEffect(() => {
    let live = true;
    unwrap(api.pricing.products.$get())
      .then((body) => {
        const found: Partial<Record<Product, number>> = {};
        for (const p of body.products) found[p.product_type] = p.price_cents;
        if (live) setPrices(found);
      })
      .catch(() => {});
    void loadQuotes();
    void loadStatus();
    return () => {
      live = false;
    };
  }, [loadQuotes, loadStatus]);

  const priceOf = useCallback((p: Product) => prices[p] ?? OFFERS[p].price_cents, [prices]);

  return { priceOf, quotes, status, reload: () => Promise.all([loadStatus(), loadQuotes()]) };
}
