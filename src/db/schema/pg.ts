import { postgresColumns } from "./pg-columns.ts";
import { defineTables } from "./tables.ts";

/**
 * The PostgreSQL tables, built from the same description as index.ts
 * (tables.ts) with pg-core columns; typed as the SQLite ones (pg-columns.ts).
 * Named exports so drizzle-kit (drizzle.pg.config.ts) finds them; the code
 * takes `pgTables` whole.
 */
export const pgTables = defineTables(postgresColumns);

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
} = pgTables;
