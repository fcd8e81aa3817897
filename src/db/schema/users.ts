import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { flag, timestamp } from "./columns.ts";

export const PLANS = ["trial", "basic", "pro", "expired"] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_CYCLES = ["monthly", "annual"] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/**
 * A user and their two quota balances (DECISIONS.md, Quota model):
 * plan_queries is the plan's allowance for the current quota period,
 * extra_queries holds packs, referral bonuses and grants, which never expire.
 */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    subscriptionType: text("subscription_type", { enum: PLANS }).notNull().default("trial"),
    billingCycle: text("billing_cycle", { enum: BILLING_CYCLES }),
    planQueries: integer("plan_queries").notNull().default(0),
    extraQueries: integer("extra_queries").notNull().default(0),
    trialEndsAt: timestamp("trial_ends_at"),
    /** Start of the current paid plan; monthly quota periods count from here. */
    planStartedAt: timestamp("plan_started_at"),
    /** Next monthly reset of plan_queries (also on annual billing). */
    quotaRenewsAt: timestamp("quota_renews_at"),
    /** Next billing renewal date: where scheduled plan changes take effect. */
    periodEndsAt: timestamp("period_ends_at"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    isAdmin: flag("is_admin").notNull().default(false),
    twoFactorEnabled: flag("two_factor_enabled").notNull().default(false),
    referralCode: text("referral_code").unique(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [
    index("users_created_at_idx").on(t.createdAt),
    index("users_subscription_idx").on(t.subscriptionType),
    index("users_stripe_subscription_idx").on(t.stripeSubscriptionId),
    index("users_quota_renews_idx").on(t.quotaRenewsAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
