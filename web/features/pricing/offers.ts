/**
 * The SPA's view of the billing engineer's pure price module: prices, offers
 * per plan and change options all come from there, never re-typed here.
 */
import {
  type ChangeOption,
  changeOptionsFor,
  type Cycle,
  OFFERS,
  type OfferPlan,
  type Product,
  productFor,
  type SubscriptionProduct,
} from "../../../src/contracts/pricing.ts";

export { OFFERS, offersFor, packAvailableFor, SUBSCRIPTION_PRODUCTS, isUpgrade } from "../../../src/contracts/pricing.ts";
export type { ChangeOption, Cycle, OfferPlan, Product, SubscriptionProduct };
export type ProductType = Product;

export type ChangeRow = ChangeOption & { current: boolean };

/**
 * The change-plan list of docs/PRODUCT.md#plan-changes: every plan/cycle option sorted by
 * yearly price descending (143,88 and 359,88 for the monthly ones), cancel
 * last, with the current plan kept in its place but marked current (its
 * button is disabled).
 */
export function changeRows(plan: OfferPlan, cycle: Cycle | null): ChangeRow[] {
  const others = changeOptionsFor(plan, cycle);
  if (plan !== "basic" && plan !== "pro") return [];
  const current = productFor(plan, cycle ?? "monthly");
  const rows: ChangeRow[] = others.map((o) => ({ ...o, current: false }));
  const mine: ChangeRow = { target_plan: plan, target_billing_cycle: cycle ?? "monthly", product_type: current, label: "", current: true };
  const total = (p: SubscriptionProduct | null) => (p ? (OFFERS[p].annual_total_cents ?? 0) : -1);
  const at = rows.findIndex((r) => total(r.product_type) < total(current));
  rows.splice(at === -1 ? rows.length : at, 0, mine);
  return rows;
}

/** The change option a subscriber lands on when they press "buy" on a subscription card. */
export function changeRowFor(plan: OfferPlan, cycle: Cycle | null, product: SubscriptionProduct): ChangeRow | undefined {
  return changeRows(plan, cycle).find((r) => r.product_type === product);
}
