import { useEffect, useRef, useState } from "react";
import { CheckIcon, CopyIcon, GiftIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import type { ReferralInfo } from "../../lib/api-types.ts";

const t = fr.referral;

/** The personal referral code of a Pro user, or the server's explanation when there is none. */
export function ReferralCard({ info, id }: { info: ReferralInfo; id?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    if (!info.code) return;
    try {
      await navigator.clipboard.writeText(info.code);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      // clipboard refused: the code is on screen to copy by hand
    }
  }

  return (
    <section className="card referral-card" id={id} aria-labelledby="referral-title">
      <h2 id="referral-title">
        <GiftIcon /> {t.cardTitle}
      </h2>
      {info.has_code && info.code ? (
        <>
          <div className="code-row">
            <code className="referral-code">{info.code}</code>
            <button type="button" className="secondary" onClick={() => void copy()}>
              {copied ? <CheckIcon /> : <CopyIcon />} {copied ? t.copied : t.copy}
            </button>
          </div>
          <p className="small">{t.count(info.successful_referrals ?? 0)}</p>
          <p className="small muted">{t.bonus(info.bonus_per_referral ?? 10)}</p>
        </>
      ) : (
        info.message && <p className="small muted">{info.message}</p>
      )}
    </section>
  );
}
