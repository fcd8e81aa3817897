import { api, unwrap } from "../../lib/api.ts";

/** GET /promo/my-code: the user's referral code, or why there is none (also started by index.html before the scripts load: EARLY_CALLS, web/lib/early.ts). */
export const fetchMyCode = () => unwrap(api.promo["my-code"].$get());
