import type { Columns } from "./columns.ts";

export const PLANS = ["trial", "basic", "pro", "expired"] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_CYCLES = ["monthly", "annual"] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export function userTables(c: Columns) {
  /**
   * A user and their two quota balances (DECISIONS.md, Quota model):
   * plan_queries is the plan's allowance for the current quota period,
   * extra_queries holds packs, referral bonuses and grants, which never expire.
   */
  const users = c.table(
    "users",
    {
      id: c.id(),
      email: c.text("email").notNull().unique(),
      passwordHash: c.text("password_hash").notNull(),
      firstName: c.text("first_name").notNull(),
      lastName: c.text("last_name").notNull(),
      subscriptionType: c.text("subscription_type", { enum: PLANS }).notNull().default("trial"),
      billingCycle: c.text("billing_cycle", { enum: BILLING_CYCLES }),
      planQueries: c.int("plan_queries").notNull().default(0),
      extraQueries: c.int("extra_queries").notNull().default(0),
      trialEndsAt: c.timestamp("trial_ends_at"),
      /** Start of the current paid plan; monthly quota periods count from here. */
      planStartedAt: c.timestamp("plan_started_at"),
      /** Next monthly reset of plan_queries (also on annual billing). */
      quotaRenewsAt: c.timestamp("quota_renews_at"),
      /** Next billing renewal date: where scheduled plan changes take effect. */
      periodEndsAt: c.timestamp("period_ends_at"),
      stripeCustomerId: c.text("stripe_customer_id"),
      stripeSubscriptionId: c.text("stripe_subscription_id"),
      isAdmin: c.flag("is_admin").notNull().default(false),
      twoFactorEnabled: c.flag("two_factor_enabled").notNull().default(false),
      referralCode: c.text("referral_code").unique(),
      createdAt: c.timestamp("created_at").notNull(),
      updatedAt: c.timestamp("updated_at").notNull(),
    },
    (t) => [
      c.index("users_created_at_idx").on(t.createdAt),
      c.index("users_subscription_idx").on(t.subscriptionType),
      c.index("users_stripe_subscription_idx").on(t.stripeSubscriptionId),
      c.index("users_quota_renews_idx").on(t.quotaRenewsAt),
    ],
  );
  return { users };
}

export type UserTables = ReturnType<typeof userTables>;
