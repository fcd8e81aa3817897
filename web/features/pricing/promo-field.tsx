import { fr } from "../../i18n/fr.ts";
import type { usePromo } from "./use-promo.ts";

const t = fr.pricing.promo;

/** The promo/referral code: typed in upper case, the server's verdict shown under it. */
export function PromoField({ promo }: { promo: ReturnType<typeof usePromo> }) {
  const { code, setCode, result, checking } = promo;
  return (
    <section className="pricing-section promo">
      <div className="field">
        <label htmlFor="promo-code">{t.label}</label>
        <input
          id="promo-code"
          name="promo_code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={t.placeholder}
          value={code}
          aria-describedby="promo-result"
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
      <p id="promo-result" className={`promo-result ${result ? (result.valid ? "ok" : "ko") : ""}`} aria-live="polite">
        {checking ? t.checking : (result?.message ?? "")}
      </p>
    </section>
  );
}
