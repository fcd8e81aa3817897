import { sqliteTables } from "./sqlite.ts";

export { CONVERSATION_SOURCES, type ConversationSource, MESSAGE_TYPES, type MessageType, SENDERS } from "./chat.ts";
export { PRODUCT_TYPES, type ProductType, PURCHASE_STATUSES } from "./billing.ts";
export { BILLING_CYCLES, type BillingCycle, PLANS, type Plan } from "./users.ts";

/** The SQLite tables: what the query modules import (drizzle-kit reads this file for drizzle.config.ts). */
export const {
  users,
  sessions,
  rememberedDevices,
  twoFactorCodes,
  authFailures,
  passwordResetTokens,
  apiKeys,
  conversations,
  messages,
  processingRuns,
  aiCalls,
  fulfilments,
  purchases,
  stripeEvents,
  pendingPlanChanges,
  referrals,
  billingChanges,
  promoCodes,
  checkoutSessions,
  contactMessages,
  mailOutbox,
  serverLease,
  rateLimits,
  auditLog,
} = sqliteTables;

export type UserRow = typeof users.$inferSelect;
