import { api, unwrap } from "../../lib/api.ts";

/** GET /promo/my-code: the user's referral code, or why there is none (also started before React mounts, web/main.tsx). */
export const fetchMyCode = () => unwrap(api.promo["my-code"].$get());
