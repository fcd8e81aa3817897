import type { Columns } from "./columns.ts";
import { BILLING_CYCLES, PLANS, type UserTables } from "./users.ts";

export const PRODUCT_TYPES = ["subscription_basic", "subscription_basic_annual", "subscription_pro", "subscription_pro_annual", "token_pack_10"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const PURCHASE_STATUSES = ["completed", "disputed", "refunded"] as const;

export function billingTables(c: Columns, { users }: UserTables) {
  /**
   * Idempotency claim of a paid Checkout Session: fulfilment inserts here with
   * ON CONFLICT DO NOTHING RETURNING before it credits anything.
   */
  const fulfilments = c.table("fulfilments", {
    checkoutSessionId: c.text("checkout_session_id").primaryKey(),
    userId: c.int("user_id").references(() => users.id, { onDelete: "set null" }),
    productType: c.text("product_type", { enum: PRODUCT_TYPES }).notNull(),
    fulfilledAt: c.timestamp("fulfilled_at").notNull(),
  });

  /** Money received, kept for accounting when the user is deleted (user_id set null). */
  const purchases = c.table(
    "purchases",
    {
      id: c.id(),
      userId: c.int("user_id").references(() => users.id, { onDelete: "set null" }),
      productType: c.text("product_type", { enum: PRODUCT_TYPES }).notNull(),
      checkoutSessionId: c.text("checkout_session_id").unique(),
      invoiceId: c.text("invoice_id").unique(),
      amountCents: c.int("amount_cents").notNull(),
      currency: c.text("currency").notNull().default("eur"),
      /** disputed: a chargeback is open (its pack requests are held); refunded: fully refunded or dispute lost. */
      status: c.text("status", { enum: PURCHASE_STATUSES }).notNull().default("completed"),
      /** Pack requests taken back while a dispute is open, given back if it is won. */
      heldRequests: c.int("held_requests").notNull().default(0),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("purchases_user_idx").on(t.userId), c.index("purchases_created_idx").on(t.createdAt)],
  );

  /** Every Stripe event id is handled once. */
  const stripeEvents = c.table("stripe_events", {
    id: c.text("id").primaryKey(),
    type: c.text("type").notNull(),
    receivedAt: c.timestamp("received_at").notNull(),
  });

  /** A downgrade, cycle change or cancellation waiting for the next renewal date. */
  const pendingPlanChanges = c.table(
    "pending_plan_changes",
    {
      id: c.id(),
      userId: c
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      targetPlan: c.text("target_plan", { enum: PLANS }).notNull(),
      targetCycle: c.text("target_cycle", { enum: BILLING_CYCLES }),
      reason: c.text("reason"),
      scheduledAt: c.timestamp("scheduled_at").notNull(),
      status: c
        .text("status", { enum: ["pending", "applied", "cancelled"] })
        .notNull()
        .default("pending"),
      stripeScheduleId: c.text("stripe_schedule_id"),
      createdAt: c.timestamp("created_at").notNull(),
      endedAt: c.timestamp("ended_at"),
    },
    (t) => [c.index("pending_plan_changes_due_idx").on(t.status, t.scheduledAt), c.index("pending_plan_changes_user_idx").on(t.userId)],
  );

  /** A referee is rewarded once: unique referee. */
  const referrals = c.table("referrals", {
    id: c.id(),
    referrerId: c.int("referrer_id").references(() => users.id, { onDelete: "set null" }),
    refereeId: c
      .int("referee_id")
      .references(() => users.id, { onDelete: "cascade" })
      .unique(),
    checkoutSessionId: c.text("checkout_session_id").notNull(),
    bonus: c.int("bonus").notNull(),
    createdAt: c.timestamp("created_at").notNull(),
    /** Set when the referee's payment was refunded or lost in a dispute: the bonus was taken back. */
    revokedAt: c.timestamp("revoked_at"),
  });

  /**
   * Every change of an account's entitlements made for a billing reason (plan,
   * cycle, allowance, extra requests, Stripe subscription): who did it, what,
   * and why. Written by src/billing/entitlements.ts only; shown to the admin
   * and by `unisson users show`. Kept when the account is deleted (user_id null).
   */
  const billingChanges = c.table(
    "billing_changes",
    {
      id: c.id(),
      userId: c.int("user_id").references(() => users.id, { onDelete: "set null" }),
      /** "stripe", "reconcile", "job", "user", "admin:<id>", "cli". */
      actor: c.text("actor").notNull(),
      /** A short machine word: plan, refund, dispute, duplicate_subscription, reconcile, ... */
      action: c.text("action").notNull(),
      /** The French sentence an operator reads. */
      detail: c.text("detail").notNull(),
      /** The Stripe object behind the change (event, invoice, charge, dispute, subscription), when there is one. */
      stripeRef: c.text("stripe_ref"),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("billing_changes_user_idx").on(t.userId, t.createdAt)],
  );

  /** Operator promo codes (percent off), mirrored as Stripe coupons. */
  const promoCodes = c.table("promo_codes", {
    code: c.text("code").primaryKey(),
    percentOff: c.int("percent_off").notNull(),
    maxUses: c.int("max_uses"),
    uses: c.int("uses").notNull().default(0),
    expiresAt: c.timestamp("expires_at"),
    stripeCouponId: c.text("stripe_coupon_id"),
    createdAt: c.timestamp("created_at").notNull(),
  });

  /** Checkout Sessions the product created, so status polls and webhooks can find their user and promo. */
  const checkoutSessions = c.table(
    "checkout_sessions",
    {
      id: c.text("id").primaryKey(),
      userId: c
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      productType: c.text("product_type", { enum: PRODUCT_TYPES }).notNull(),
      promoCode: c.text("promo_code"),
      referrerId: c.int("referrer_id").references(() => users.id, { onDelete: "set null" }),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("checkout_sessions_user_idx").on(t.userId)],
  );

  return { fulfilments, purchases, stripeEvents, pendingPlanChanges, referrals, billingChanges, promoCodes, checkoutSessions };
}
