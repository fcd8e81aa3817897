import { useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { CloseIcon, GiftIcon } from "../../components/ui/icons.tsx";
import { fr } from "../../i18n/fr.ts";
import { hasFlag, rememberFlag } from "../../lib/storage.ts";

const t = fr.referral;
export const BANNER_KEY = "unisson_referral_banner_dismissed";

/**
 * The bottom banner (docs/PRODUCT.md#referral-banner): hidden for admins and once dismissed;
 * basic/pro users are invited to share their code, others to subscribe.
 */
export function ReferralBanner({ user, onSeeCode, onSubscribe }: { user: PublicUser; onSeeCode(): void; onSubscribe(): void }) {
  const [hidden, setHidden] = useState(() => hasFlag(BANNER_KEY));
  if (user.is_admin || hidden) return null;
  const paid = user.subscription_type === "basic" || user.subscription_type === "pro";
  return (
    <aside className="referral-banner" aria-label={t.cardTitle}>
      <GiftIcon />
      <p>
        <span className="banner-long">{paid ? t.bannerShare : t.bannerSubscribe}</span>
        <span className="banner-short">{paid ? t.bannerShareShort : t.bannerSubscribeShort}</span>
      </p>
      <button type="button" className="primary small-button" onClick={paid ? onSeeCode : onSubscribe}>
        {paid ? t.bannerSee : t.bannerSubscribeButton}
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t.dismiss}
        onClick={() => {
          rememberFlag(BANNER_KEY);
          setHidden(true);
        }}
      >
        <CloseIcon />
      </button>
    </aside>
  );
}
