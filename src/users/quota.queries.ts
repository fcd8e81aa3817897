/**
 * Spending and giving back one request. The SQL lives with the other
 * entitlement writes (src/billing/billing.queries.ts, owned by
 * src/billing/entitlements.ts); the chat engine keeps importing it from here.
 */
export { type QuotaSource, refundOneQuery, spendOneQuery } from "../billing/entitlements.ts";
