import { useEffect, useState } from "react";
import { fr } from "../../i18n/fr.ts";
import { api, unwrap } from "../../lib/api.ts";

/** docs/PRODUCT.md#pricing-overlay: the code is checked on the server 500 ms after the last keystroke. */
export const PROMO_DEBOUNCE_MS = 500;

export type PromoResult = { valid: boolean; message: string } | null;

/** The promo field: upper case as typed, validated after 500 ms of quiet; empty clears the result. */
export function usePromo() {
  const [code, setCodeRaw] = useState("");
  const [result, setResult] = useState<PromoResult>(null);
  const [checking, setChecking] = useState(false);

  const setCode = (value: string) => setCodeRaw(value.toUpperCase());

  useEffect(() => {
    const trimmed = code.trim();
    setResult(null);
    if (!trimmed) {
      setChecking(false);
      return;
    }
    let live = true;
    const timer = setTimeout(async () => {
      setChecking(true);
      try {
        const r = await unwrap(api.promo.validate.$post({ json: { code: trimmed } }));
        if (live) setResult({ valid: r.valid, message: r.message });
      } catch {
        if (live) setResult({ valid: false, message: fr.pricing.promo.error });
      } finally {
        if (live) setChecking(false);
      }
    }, PROMO_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [code]);

  /** Only a code the server accepted travels with the checkout. */
  const validCode = result?.valid ? code.trim() : undefined;
  return { code, setCode, result, checking, validCode };
}
