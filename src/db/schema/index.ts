import { pgTables } from "./pg.ts";
import { sqliteTables } from "./sqlite.ts";
import type { Tables } from "./tables.ts";

export { CONVERSATION_SOURCES, type ConversationSource, MESSAGE_TYPES, type MessageType, SENDERS } from "./chat.ts";
export type { SharedSnapshot } from "./sharing.ts";
export { ATTACHMENT_KINDS, type AttachmentKind } from "./attachments.ts";
export { PRODUCT_TYPES, type ProductType, PURCHASE_STATUSES } from "./billing.ts";
export { BUILTIN_KEYS, type BuiltinKey, PROVIDER_KINDS, type ProviderKind } from "./council.ts";
export { BILLING_CYCLES, type BillingCycle, PLANS, type Plan } from "./users.ts";

/**
 * The tables the query modules import: SQLite's until the process opens its
 * application database, then that database's dialect's (`selectTables`, called
 * by openDb and openPostgres). Live bindings, so the query modules stay
 * dialect-free without a tables argument: one dialect per process
 * (docs/DECISIONS.md, "One dialect per process"). drizzle-kit reads this file
 * for drizzle.config.ts and finds the SQLite tables.
 */
// Module state: the selected dialect's tables (let bindings reassigned once by selectTables).
export let {
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
  apiRequests,
  aiCalls,
  attachments,
  sharedLinks,
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
  councilMembers,
  councilSettings,
} = sqliteTables;

export type Dialect = "sqlite" | "postgres";
// Module state: the dialect the process's application database was opened with.
let selected: Dialect | undefined;

/**
 * Points the exported tables at one dialect's, once per process: a process
 * that then opens the other dialect's application database is refused (its
 * queries would run with the first one's tables). `unisson db copy` takes its
 * tables explicitly (sqlite.ts, pg.ts) and is not concerned.
 */
export function selectTables(dialect: Dialect): void {
  if (selected === dialect) return;
  if (selected) {
    throw new Error(`Ce processus utilise déjà une base ${selected} : une seule sorte de base (SQLite ou PostgreSQL) par processus.`);
  }
  selected = dialect;
  const t: Tables = dialect === "postgres" ? pgTables : sqliteTables;
  ({
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
    apiRequests,
    aiCalls,
    attachments,
    sharedLinks,
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
    councilMembers,
    councilSettings,
  } = t);
}

export type UserRow = typeof users.$inferSelect;
export type CouncilMemberRow = typeof councilMembers.$inferSelect;
export type CouncilSettingsRow = typeof councilSettings.$inferSelect;
