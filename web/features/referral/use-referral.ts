import { useEffect, useState } from "react";
import type { ReferralInfo } from "../../lib/api-types.ts";
import { takeEarly } from "../../lib/early.ts";
import { fetchMyCode } from "./referral.api.ts";

/** GET /promo/my-code once per signed-in user (and again when the plan changes); failures leave no card. */
export function useReferral(userId: number, plan: string) {
  const [info, setInfo] = useState<ReferralInfo | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again for another user or plan, though the request does not name them.
  useEffect(() => {
    let live = true;
    takeEarly("myCode", fetchMyCode).then(
      (r) => live && setInfo(r),
      (err) => console.warn("referral", err),
    );
    return () => {
      live = false;
    };
  }, [userId, plan]);
  return info;
}
