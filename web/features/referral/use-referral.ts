import { useEffect, useState } from "react";
import { api, unwrap } from "../../lib/api.ts";
import { takeEarly } from "../../lib/early.ts";

export type ReferralInfo = {
  has_code: boolean;
  code?: string | null;
  successful_referrals?: number;
  bonus_per_referral?: number;
  message?: string | null;
};

/** GET /promo/my-code once per signed-in user (and again when the plan changes); failures leave no card. */
export function useReferral(userId: number, plan: string) {
  const [info, setInfo] = useState<ReferralInfo | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again for another user or plan, though the request does not name them.
  useEffect(() => {
    let live = true;
    takeEarly("my-code", () => unwrap(api.promo["my-code"].$get())).then(
      (r) => live && setInfo(r as ReferralInfo),
      (err) => console.warn("referral", err),
    );
    return () => {
      live = false;
    };
  }, [userId, plan]);
  return info;
}
