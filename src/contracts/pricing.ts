/**
 * The one source of prices and offers (docs/PRODUCT.md#pricing, DECISIONS.md Prices).
 * The API, the SPA and the legal texts (CGV) all import this module, so it
 * imports nothing: no database, no Node API, no server code. Amounts are in
 * euro cents; labels are French-formatted.
 */

export type PaidPlan = "basic" | "pro";
export type OfferPlan = "trial" | "basic" | "pro" | "expired";
export type Cycle = "monthly" | "annual";
export type SubscriptionProduct = "subscription_basic" | "subscription_basic_annual" | "subscription_pro" | "subscription_pro_annual";
export type Product = SubscriptionProduct | "token_pack_10";

export const CURRENCY = "eur";
/** Extra requests given to both referrer and referee (docs/PRODUCT.md#referral). */
export const REFERRAL_BONUS = 10;
export const PACK_REQUESTS = 10;
/** Monthly allowance of each paid plan, also on annual billing (DECISIONS.md Quota model). */
const PLAN_REQUESTS: Record<PaidPlan, number> = { basic: 10, pro: 30 };
/** The trial's requests, in total over its days. */
const TRIAL_REQUESTS = 5;
/** Allowance per quota period of every plan: the only table of these numbers. */
export const PLAN_ALLOWANCE: Record<OfferPlan, number> = { trial: TRIAL_REQUESTS, ...PLAN_REQUESTS, expired: 0 };
export const PLAN_NAMES: Record<OfferPlan, string> = { trial: "Essai", basic: "Basic", pro: "Pro", expired: "Expiré" };
/** The same names in lower case, as the CLI prints them in sentences ("forfait pro attribué"). */
export const PLAN_LABELS = Object.fromEntries(Object.entries(PLAN_NAMES).map(([plan, name]) => [plan, name.toLowerCase()])) as Record<OfferPlan, string>;
export const CYCLE_NAMES: Record<Cycle, string> = { monthly: "mensuel", annual: "annuel" };
const ANNUAL_BADGE = "2 mois gratuits";

const PLAN_FEATURES: Record<PaidPlan, readonly string[]> = {
  basic: ["10 requêtes par mois", "Réponse consolidée de plusieurs IA", "Historique complet des conversations", "Support par email"],
  pro: [
    "30 requêtes par mois",
    "Réponse consolidée de plusieurs IA",
    "Historique complet des conversations",
    "Support prioritaire",
    "Code de parrainage personnel (+10 requêtes par filleul)",
  ],
};
const PACK_FEATURES: readonly string[] = ["10 requêtes supplémentaires", "Sans expiration, conservées au renouvellement", "Réservé aux abonnés Basic et Pro"];

export type Offer = {
  product_type: Product;
  name: string;
  plan: PaidPlan | null;
  billing_cycle: Cycle | null;
  /** Stripe's recurring interval; null for the one-off pack. */
  interval: "month" | "year" | null;
  price_cents: number;
  /** Requests per month for plans, requests added for the pack. */
  requests: number;
  monthly_equivalent_cents: number | null;
  savings_cents: number | null;
  /** A year of this offer (monthly x 12 for monthly plans): the order of the change-plan list. */
  annual_total_cents: number | null;
  badge: string | null;
  popular: boolean;
  features: readonly string[];
};

export const OFFERS: Record<Product, Offer> = {
  subscription_basic: {
    product_type: "subscription_basic",
    name: "Basic",
    plan: "basic",
    billing_cycle: "monthly",
    interval: "month",
    price_cents: 1199,
    requests: PLAN_REQUESTS.basic,
    monthly_equivalent_cents: 1199,
    savings_cents: null,
    annual_total_cents: 14388,
    badge: null,
    popular: false,
    features: PLAN_FEATURES.basic,
  },
  subscription_basic_annual: {
    product_type: "subscription_basic_annual",
    name: "Basic annuel",
    plan: "basic",
    billing_cycle: "annual",
    interval: "year",
    price_cents: 11900,
    requests: PLAN_REQUESTS.basic,
    monthly_equivalent_cents: 992,
    savings_cents: 2388,
    annual_total_cents: 11900,
    badge: ANNUAL_BADGE,
    popular: false,
    features: PLAN_FEATURES.basic,
  },
  subscription_pro: {
    product_type: "subscription_pro",
    name: "Pro",
    plan: "pro",
    billing_cycle: "monthly",
    interval: "month",
    price_cents: 2990,
    requests: PLAN_REQUESTS.pro,
    monthly_equivalent_cents: 2990,
    savings_cents: null,
    annual_total_cents: 35988,
    badge: null,
    popular: true,
    features: PLAN_FEATURES.pro,
  },
  subscription_pro_annual: {
    product_type: "subscription_pro_annual",
    name: "Pro annuel",
    plan: "pro",
    billing_cycle: "annual",
    interval: "year",
    price_cents: 29900,
    requests: PLAN_REQUESTS.pro,
    monthly_equivalent_cents: 2492,
    savings_cents: 5980,
    annual_total_cents: 29900,
    badge: ANNUAL_BADGE,
    popular: true,
    features: PLAN_FEATURES.pro,
  },
  token_pack_10: {
    product_type: "token_pack_10",
    name: "Pack 10 requêtes",
    plan: null,
    billing_cycle: null,
    interval: null,
    price_cents: 999,
    requests: PACK_REQUESTS,
    monthly_equivalent_cents: null,
    savings_cents: null,
    annual_total_cents: null,
    badge: null,
    popular: false,
    features: PACK_FEATURES,
  },
};

export const PRODUCT_ORDER: readonly Product[] = [
  "subscription_basic",
  "subscription_basic_annual",
  "subscription_pro",
  "subscription_pro_annual",
  "token_pack_10",
];
export const SUBSCRIPTION_PRODUCTS: readonly SubscriptionProduct[] = [
  "subscription_basic",
  "subscription_basic_annual",
  "subscription_pro",
  "subscription_pro_annual",
];

/** "11,99 €" — French number format, always two decimals for cents. */
export function formatEuros(cents: number): string {
  const euros = Math.floor(Math.abs(cents) / 100);
  const rest = String(Math.abs(cents) % 100).padStart(2, "0");
  const grouped = String(euros).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  return `${cents < 0 ? "-" : ""}${grouped},${rest} €`;
}

export function productFor(plan: PaidPlan, cycle: Cycle): SubscriptionProduct {
  return `subscription_${plan}${cycle === "annual" ? "_annual" : ""}` as SubscriptionProduct;
}

/**
 * Subscription offers shown to a user (docs/PRODUCT.md#offers): trial and expired see
 * all; basic sees all while requests remain, otherwise only Pro; pro sees all
 * while requests remain, otherwise none. The pack is governed by packAvailableFor.
 */
export function offersFor(plan: OfferPlan, remaining: number): SubscriptionProduct[] {
  const all = [...SUBSCRIPTION_PRODUCTS];
  if (plan === "trial" || plan === "expired" || remaining > 0) return all;
  if (plan === "basic") return all.filter((p) => OFFERS[p].plan === "pro");
  return [];
}

/** The request pack is sold to basic and pro subscribers only (docs/PRODUCT.md#offers). */
export function packAvailableFor(plan: OfferPlan): boolean {
  return plan === "basic" || plan === "pro";
}

export type ChangeOption = { target_plan: PaidPlan | "expired"; target_billing_cycle: Cycle | null; product_type: SubscriptionProduct | null; label: string };

/**
 * Change-plan options (docs/PRODUCT.md#plan-changes): every other plan/cycle pair of the
 * paid plans, sorted by yearly price descending, then cancellation last.
 */
export function changeOptionsFor(plan: OfferPlan, cycle: Cycle | null): ChangeOption[] {
  if (plan !== "basic" && plan !== "pro") return [];
  const options: ChangeOption[] = SUBSCRIPTION_PRODUCTS.filter((p) => !(OFFERS[p].plan === plan && OFFERS[p].billing_cycle === (cycle ?? "monthly")))
    .sort((a, b) => (OFFERS[b].annual_total_cents ?? 0) - (OFFERS[a].annual_total_cents ?? 0))
    .map((p) => ({
      target_plan: OFFERS[p].plan!,
      target_billing_cycle: OFFERS[p].billing_cycle,
      product_type: p,
      label: `${PLAN_NAMES[OFFERS[p].plan!]} ${CYCLE_NAMES[OFFERS[p].billing_cycle!]}`,
    }));
  options.push({ target_plan: "expired", target_billing_cycle: null, product_type: null, label: "Résilier au prochain renouvellement" });
  return options;
}

/** basic -> pro is the only upgrade; it takes effect at once. */
export function isUpgrade(from: OfferPlan, to: OfferPlan): boolean {
  return from === "basic" && to === "pro";
}
