import type { UserRow } from "../db/schema/index.ts";
import { type PublicUser, toPublicUser } from "../users/users.view.ts";

/** What an operator needs to see of one account (CLI `users show`): the user object plus the quota split and plan dates. */
export type UserDetail = PublicUser & {
  plan_queries: number;
  extra_queries: number;
  billing_cycle: "monthly" | "annual" | null;
  trial_ends_at: string | null;
  quota_renews_at: string | null;
  next_renewal_date: string | null;
  two_factor_enabled: boolean;
  referral_code: string | null;
  stripe_subscription_id: string | null;
  /** Billing changes (who, what, why), newest first: refunds, disputes, plan changes, reconciliation. */
  billing_history: BillingHistoryEntry[];
};

export type BillingHistoryEntry = { at: string; actor: string; action: string; detail: string; stripe_ref: string | null };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toUserDetail(u: UserRow, now: Date, billingHistory: BillingHistoryEntry[] = []): UserDetail {
  return {
    ...toPublicUser(u, now),
    plan_queries: u.planQueries,
    extra_queries: u.extraQueries,
    billing_cycle: u.billingCycle,
    trial_ends_at: iso(u.trialEndsAt),
    quota_renews_at: iso(u.quotaRenewsAt),
    next_renewal_date: iso(u.periodEndsAt),
    two_factor_enabled: u.twoFactorEnabled,
    referral_code: u.referralCode,
    stripe_subscription_id: u.stripeSubscriptionId,
    billing_history: billingHistory,
  };
}

/** Plan names as the product shows them in French (one table, with the prices). */
export { PLAN_LABELS } from "../contracts/pricing.ts";
