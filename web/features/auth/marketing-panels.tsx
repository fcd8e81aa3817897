import { fr } from "../../i18n/fr.ts";

const t = fr.marketing;

/** Side panels of the auth views: what Unisson is, the trial, the plans, a call to sign up. */
export function MarketingPanels() {
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
      <section className="panel">
        <h3>{t.trialTitle}</h3>
        <p>{t.trialText}</p>
      </section>
      <section className="panel">
        <h3>{t.plansTitle}</h3>
        <ul>
          <li>{t.plansBasic}</li>
          <li>{t.plansPro}</li>
        </ul>
      </section>
    </aside>
  );
}
