import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { BILLING_CYCLES, PLANS, users } from "./users.ts";

export const PRODUCT_TYPES = [
  "subscription_basic",
  "subscription_basic_annual",
  "subscription_pro",
  "subscription_pro_annual",
  "token_pack_10",
] as const;
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
    status: text("status", { enum: ["completed", "refunded"] }).notNull().default("completed"),
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
    status: text("status", { enum: ["pending", "applied", "cancelled"] }).notNull().default("pending"),
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
});

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
