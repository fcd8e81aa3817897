import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";
import { formatEuros } from "../../../src/contracts/pricing.ts";
import { fill } from "../../lib/format.ts";
import { type Cycle, OFFERS, offersFor, type Product, type SubscriptionProduct } from "./offers.ts";
import type { UpgradeQuote } from "../../lib/api-types.ts";

const t = fr.pricing;
const monthlyOf = (p: SubscriptionProduct): SubscriptionProduct => (p.endsWith("_annual") ? (p.replace("_annual", "") as SubscriptionProduct) : p);

/** The monthly/annual switch; annual carries the '2 mois gratuits' badge. */
export function CycleToggle({ cycle, onChange }: { cycle: Cycle; onChange(c: Cycle): void }) {
  return (
    <div className="cycle-toggle" role="radiogroup" aria-label={t.cycleLabel}>
      {(["monthly", "annual"] as const).map((c) => (
        <button key={c} type="button" role="radio" aria-checked={cycle === c} className={cycle === c ? "on" : ""} onClick={() => onChange(c)}>
          {c === "monthly" ? t.monthly : t.annual}
          {c === "annual" && <span className="cycle-badge">{t.annualBadge}</span>}
        </button>
      ))}
    </div>
  );
}

/**
 * The subscription cards of the chosen cycle, limited to the offers of docs/PRODUCT.md#offers for this user's plan and remaining requests.
 */
export function PlanCards({
  user,
  cycle,
  currentCycle,
  priceOf,
  quotes,
  busy,
  onBuy,
}: {
  user: PublicUser;
  cycle: Cycle;
  currentCycle: Cycle | null;
  priceOf(p: Product): number;
  quotes: Partial<Record<SubscriptionProduct, UpgradeQuote>>;
  busy: Product | null;
  onBuy(p: SubscriptionProduct): void;
}) {
  const shown = offersFor(user.subscription_type, user.remaining_queries).filter((p) => OFFERS[p].billing_cycle === cycle);
  if (shown.length === 0) return <p className="muted pricing-empty">{t.noOffers}</p>;

  return (
    <ul className="plan-cards">
      {shown.map((p) => {
        const o = OFFERS[p];
        const plan = o.plan!;
        const current = user.subscription_type === plan && (currentCycle ?? "monthly") === o.billing_cycle;
        const quote = quotes[p];
        const titleId = `plan-${p}`;
        return (
          <li key={p} className={`plan-card${o.popular ? " popular" : ""}${current ? " current" : ""}`} aria-labelledby={titleId}>
            {o.popular && <span className="plan-popular">{t.popular}</span>}
            <h3 id={titleId}>{t.planNames[plan]}</h3>
            <p className="plan-price">
              <strong>{formatEuros(priceOf(p))}</strong>
              <span>{o.billing_cycle === "annual" ? t.perYear : t.perMonth}</span>
            </p>
            {o.billing_cycle === "annual" && o.monthly_equivalent_cents !== null && (
              <p className="plan-note">{fill(t.monthlyEquivalent, { price: formatEuros(o.monthly_equivalent_cents) })}</p>
            )}
            {o.billing_cycle === "annual" && (
              // A year paid monthly (143,88 / 359,88): the total the annual price is compared with.
              <p className="plan-note">{fill(t.insteadOf, { price: formatEuros(OFFERS[monthlyOf(p)].annual_total_cents ?? 0) })}</p>
            )}
            {o.savings_cents !== null && <p className="plan-savings">{fill(t.savings, { amount: formatEuros(o.savings_cents) })}</p>}
            <ul className="plan-features">
              {o.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            {quote?.is_upgrade && (
              <p className="plan-quote">
                {fill(t.upgradeQuote, { price: formatEuros(quote.upgrade_price_cents) })}
                {quote.savings_message && <span className="plan-quote-note">{quote.savings_message}</span>}
              </p>
            )}
            <button type="button" className={o.popular ? "primary block" : "u-btn-outline block"} disabled={current || busy !== null} onClick={() => onBuy(p)}>
              {current ? t.currentPlan : busy === p ? t.redirecting : fill(t.choose, { plan: t.planNames[plan] })}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
