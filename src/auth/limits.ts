import { HOUR, MINUTE } from "../lib/clock.ts";
import type { LimitRule } from "../lib/rate-limit.ts";

/**
 * Rate limits (docs/DECISIONS.md): per IP, generous enough for an office
 * behind one address; per account (the e-mail of the body, known or not, so
 * the limit itself reveals nothing), tight enough to stop mail bombing.
 * Password guessing per account is not a limit but the login throttle
 * (credentials.ts), which slows down and never shuts the owner out;
 * two-factor requests count only with the right password, and verify
 * attempts per pending login.
 */
export const AUTH_LIMITS = {
  login: { ip: { windowMs: 15 * MINUTE, limit: 50 } },
  register: { ip: { windowMs: HOUR, limit: 20 }, account: { windowMs: HOUR, limit: 5 } },
  twoFactorRequest: { ip: { windowMs: 15 * MINUTE, limit: 30 }, account: { windowMs: 15 * MINUTE, limit: 10 } },
  twoFactorVerify: { ip: { windowMs: 15 * MINUTE, limit: 50 }, account: { windowMs: 15 * MINUTE, limit: 20 } },
  forgotPassword: { ip: { windowMs: HOUR, limit: 20 }, account: { windowMs: HOUR, limit: 3 } },
} satisfies Record<string, { ip: LimitRule; account?: LimitRule }>;
