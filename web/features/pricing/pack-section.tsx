import { fr } from "../../i18n/fr.ts";
import { formatEuros } from "../../../src/contracts/pricing.ts";
import { OFFERS, type Product } from "./offers.ts";

const t = fr.pricing.pack;

/** The one-off pack of 10 extra requests, for basic and pro subscribers only (docs/PRODUCT.md#offers). */
export function PackSection({ price, busy, onBuy }: { price: number; busy: Product | null; onBuy(): void }) {
  return (
    <section className="pricing-section pack" aria-labelledby="pack-title">
      <h3 id="pack-title">{t.title}</h3>
      <div className="pack-card">
        <div>
          <p className="pack-name">
            {t.name} · <strong>{formatEuros(price)}</strong>
          </p>
          <ul className="plan-features">
            {OFFERS.token_pack_10.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </div>
        <button type="button" className="primary" disabled={busy !== null} onClick={onBuy}>
          {busy === "token_pack_10" ? fr.pricing.redirecting : t.buy}
        </button>
      </div>
    </section>
  );
}
