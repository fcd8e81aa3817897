import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { BILLING_CYCLES, PLANS, users } from "./users.ts";

export const PRODUCT_TYPES = ["subscription_basic", "subscription_basic_annual", "subscription_pro", "subscription_pro_annual", "token_pack_10"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/**
 * Idempotency claim of a paid Checkout Session: fulfilment inserts here with
 * ON CONFLICT DO NOTHING RETURNING before it credits anything.
 */
export const fulfilments = sqliteTable("fulfilments", {
  checkoutSessionId: text("checkout_session_id").primaryKey(),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  productType: text("product_type", { enum: PRODUCT_TYPES }).notNull(),
  fulfilledAt: timestamp("fulfilled_at").notNull(),
});

export const PURCHASE_STATUSES = ["completed", "disputed", "refunded"] as const;

/** Money received, kept for accounting when the user is deleted (user_id set null). */
export const purchases = sqliteTable(
  "purchases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    productType: text("product_type", { enum: PRODUCT_TYPES }).notNull(),
    checkoutSessionId: text("checkout_session_id").unique(),
    invoiceId: text("invoice_id").unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("eur"),
    /** disputed: a chargeback is open (its pack requests are held); refunded: fully refunded or dispute lost. */
    status: text("status", { enum: PURCHASE_STATUSES }).notNull().default("completed"),
    /** Pack requests taken back while a dispute is open, given back if it is won. */
    heldRequests: integer("held_requests").notNull().default(0),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("purchases_user_idx").on(t.userId), index("purchases_created_idx").on(t.createdAt)],
);

/** Every Stripe event id is handled once. */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at").notNull(),
});

/** A downgrade, cycle change or cancellation waiting for the next renewal date. */
export const pendingPlanChanges = sqliteTable(
  "pending_plan_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    targetPlan: text("target_plan", { enum: PLANS }).notNull(),
    targetCycle: text("target_cycle", { enum: BILLING_CYCLES }),
    reason: text("reason"),
    scheduledAt: timestamp("scheduled_at").notNull(),
    status: text("status", { enum: ["pending", "applied", "cancelled"] })
      .notNull()
      .default("pending"),
    stripeScheduleId: text("stripe_schedule_id"),
    createdAt: timestamp("created_at").notNull(),
    endedAt: timestamp("ended_at"),
  },
  (t) => [index("pending_plan_changes_due_idx").on(t.status, t.scheduledAt), index("pending_plan_changes_user_idx").on(t.userId)],
);

/** A referee is rewarded once: unique referee. */
export const referrals = sqliteTable("referrals", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  referrerId: integer("referrer_id").references(() => users.id, { onDelete: "set null" }),
  refereeId: integer("referee_id")
    .references(() => users.id, { onDelete: "cascade" })
    .unique(),
  checkoutSessionId: text("checkout_session_id").notNull(),
  bonus: integer("bonus").notNull(),
  createdAt: timestamp("created_at").notNull(),
  /** Set when the referee's payment was refunded or lost in a dispute: the bonus was taken back. */
  revokedAt: timestamp("revoked_at"),
});

/**
 * Every change of an account's entitlements made for a billing reason (plan,
 * cycle, allowance, extra requests, Stripe subscription): who did it, what,
 * and why. Written by src/billing/entitlements.ts only; shown to the admin
 * and by `unisson users show`. Kept when the account is deleted (user_id null).
 */
export const billingChanges = sqliteTable(
  "billing_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** "stripe", "reconcile", "job", "user", "admin:<id>", "cli". */
    actor: text("actor").notNull(),
    /** A short machine word: plan, refund, dispute, duplicate_subscription, reconcile, ... */
    action: text("action").notNull(),
    /** The French sentence an operator reads. */
    detail: text("detail").notNull(),
    /** The Stripe object behind the change (event, invoice, charge, dispute, subscription), when there is one. */
    stripeRef: text("stripe_ref"),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("billing_changes_user_idx").on(t.userId, t.createdAt)],
);

/** Operator promo codes (percent off), mirrored as Stripe coupons. */
export const promoCodes = sqliteTable("promo_codes", {
  code: text("code").primaryKey(),
  percentOff: integer("percent_off").notNull(),
  maxUses: integer("max_uses"),
  uses: integer("uses").notNull().default(0),
  expiresAt: timestamp("expires_at"),
  stripeCouponId: text("stripe_coupon_id"),
  createdAt: timestamp("created_at").notNull(),
});

/** Checkout Sessions the product created, so status polls and webhooks can find their user and promo. */
export const checkoutSessions = sqliteTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productType: text("product_type", { enum: PRODUCT_TYPES }).notNull(),
    promoCode: text("promo_code"),
    referrerId: integer("referrer_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("checkout_sessions_user_idx").on(t.userId)],
);
