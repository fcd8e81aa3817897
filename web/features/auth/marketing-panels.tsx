import { formatEuros, OFFERS } from "../../../src/contracts/pricing.ts";
import { fr } from "../../i18n/fr.ts";

const t = fr.marketing;

/** The plan lines of the marketing panels and the register screen, priced from the one price table. */
export function PlanSummaries() {
  return (
    <ul className="plan-list">
      <li>{t.plansBasic(formatEuros(OFFERS.subscription_basic.price_cents), formatEuros(OFFERS.subscription_basic_annual.price_cents))}</li>
      <li>{t.plansPro(formatEuros(OFFERS.subscription_pro.price_cents), formatEuros(OFFERS.subscription_pro_annual.price_cents))}</li>
      <li>{t.plansPack(formatEuros(OFFERS.token_pack_10.price_cents))}</li>
    </ul>
  );
}

/** Side panels of the auth views: what Unisson is, the trial, the plans, a call to sign up. */
export function MarketingPanels({ onRegister }: { onRegister?: () => void }) {
  return (
    <aside className="marketing" aria-label={fr.brand.tagline}>
      <section className="panel hero">
        <h2>{t.whatTitle}</h2>
        <p>{t.whatText}</p>
        <ul className="claims">
          <li>{t.aiCount}</li>
          <li>{t.professionals}</li>
          <li>{t.satisfaction}</li>
        </ul>
      </section>
      <div className="panel-row">
        <section className="panel">
          <h3>{t.trialTitle}</h3>
          <p>{t.trialText}</p>
        </section>
        <section className="panel">
          <h3>{t.plansTitle}</h3>
          <PlanSummaries />
        </section>
      </div>
      {onRegister && (
        <section className="panel cta">
          <div>
            <h3>{t.ctaTitle}</h3>
            <p>{t.ctaText}</p>
          </div>
          <button type="button" className="primary" onClick={onRegister}>
            {t.ctaButton}
          </button>
        </section>
      )}
    </aside>
  );
}
