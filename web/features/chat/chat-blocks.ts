import type { PublicUser } from "../../lib/api-types.ts";
import { fr } from "../../i18n/fr.ts";

const e = fr.chat.errors;

/** A message shown in place of an answer; `pricing` opens the pricing overlay, `title` heads it. */
export type Notice = { kind: "blocked" | "moderation" | "system" | "error"; title?: string; text: string; note?: string; pricing?: boolean };

/** docs/PRODUCT.md#chat-blocks: at least 2 models must be available. */
export const MIN_AVAILABLE_AIS = 2;

/**
 * Why a message cannot be sent right now, before asking the server
 * (docs/PRODUCT.md#chat-blocks): expired, no requests left (per plan), maintenance.
 */
export function blockFor(user: PublicUser, available: number, statusLoaded: boolean): Notice | null {
  if (user.subscription_type === "expired") {
    // A trial ends on whichever limit comes first: days still left mean its 5 requests ran out.
    const text = trialSpent(user) ? e.quota.trial : e.expired;
    return { kind: "blocked", title: e.blockedTitle, text, pricing: true };
  }
  if (user.remaining_queries <= 0) {
    const plan = user.subscription_type;
    const text = plan === "trial" || plan === "basic" || plan === "pro" ? e.quota[plan] : e.quota.other;
    return { kind: "blocked", title: e.blockedTitle, text, pricing: true };
  }
  if (statusLoaded && available < MIN_AVAILABLE_AIS) return { kind: "system", title: e.systemTitle, text: e.maintenance };
  return null;
}

/** The input is disabled when expired or out of requests (docs/PRODUCT.md#chat-blocks). */
export function inputLocked(user: PublicUser): boolean {
  return user.subscription_type === "expired" || user.remaining_queries <= 0;
}

/**
 * A trial ended by its 5 requests rather than its 7 days: the API reads such a
 * trial as `expired` but still counts the days left in it (src/users/quota.ts).
 */
export function trialSpent(user: PublicUser): boolean {
  return user.subscription_type === "expired" && user.trial_days_remaining > 0 && user.remaining_queries <= 0;
}
