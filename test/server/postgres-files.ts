/**
 * The server test files that scripts/test.ts runs a second time with every
 * test app on PostgreSQL (TEST_DATABASE=postgres, test/helpers/test-database.ts):
 * those that pass there today. The others, and why:
 *  - they test what only SQLite has or does: db/db, group-commit,
 *    transaction, postgres-schema (both dialects in one process),
 *    history/paging (EXPLAIN QUERY PLAN), search-migration (FTS5),
 *    chat/recovery-lease and system/lease (the single-server lease),
 *    system/backup-job (VACUUM INTO; PostgreSQL answers "use pg_dump");
 *  - behaviour that differs on PostgreSQL by design: history/search's accent
 *    folding (no unaccent, docs/SCALING.md).
 * Files that run on both read and seed the database through the data layer
 * (drizzle on the app's `db`), never SQLite's own client. Where the product
 * legitimately differs, the test says so beside the check: a SQLite-only test
 * is skipped on PostgreSQL with test.skipIf(SQLITE_ONLY) and its reason
 * (chat/recovery's start-up refunds, which the live servers' sweep does on
 * PostgreSQL; secrets-at-rest's file modes; chat/live's two processes on one
 * SQLite file, which scaling/runs-across-servers does on PostgreSQL), and the readiness expectation of
 * system/metrics and security/authz-matrix depends on the dialect (the
 * single-server lease is SQLite's: /api/health/ready answers 200 without it
 * on PostgreSQL).
 */
export const POSTGRES_FILES = [
  "test/server/account/data-export.test.ts",
  "test/server/accounts/admin-bootstrap.test.ts",
  "test/server/accounts/common-passwords.test.ts",
  "test/server/accounts/lockout.test.ts",
  "test/server/accounts/spend-limits.test.ts",
  "test/server/admin/admin-access.test.ts",
  "test/server/admin/admin-ai-costs.test.ts",
  "test/server/admin/admin-hostile.test.ts",
  "test/server/admin/admin-stats.test.ts",
  "test/server/admin/admin-users-delete.test.ts",
  "test/server/admin/admin-users-list.test.ts",
  "test/server/admin/admin-users-update.test.ts",
  "test/server/auth/fuzz.test.ts",
  "test/server/auth/login.test.ts",
  "test/server/auth/rate-limit.test.ts",
  "test/server/auth/register.test.ts",
  "test/server/auth/reset.test.ts",
  "test/server/auth/two-factor.test.ts",
  "test/server/billing/change.test.ts",
  "test/server/billing/checkout.test.ts",
  "test/server/billing/entitlements-owner.test.ts",
  "test/server/billing/jobs.test.ts",
  "test/server/billing/money-safety.test.ts",
  "test/server/billing/pricing.test.ts",
  "test/server/billing/promo.test.ts",
  "test/server/billing/reconcile.test.ts",
  "test/server/billing/refunds.test.ts",
  "test/server/billing/stripe-decides.test.ts",
  "test/server/billing/webhook-events.test.ts",
  "test/server/billing/webhook.test.ts",
  "test/server/chat/chat.test.ts",
  "test/server/chat/live.test.ts",
  "test/server/chat/conversations.test.ts",
  "test/server/chat/outcomes.property.test.ts",
  "test/server/chat/status.test.ts",
  "test/server/code/dialect-free.test.ts",
  "test/server/code/file-names.test.ts",
  "test/server/code/import-cycles.test.ts",
  "test/server/code/module-state.test.ts",
  "test/server/contact/contact.test.ts",
  "test/server/docs/compose.test.ts",
  "test/server/docs/product-anchors.test.ts",
  "test/server/history/export.test.ts",
  "test/server/openai/forward.property.test.ts",
  "test/server/openai/stream.test.ts",
  "test/server/reliability/crash.test.ts",
  "test/server/reliability/faults.test.ts",
  "test/server/reliability/lease.test.ts",
  "test/server/reliability/lock-wait.test.ts",
  "test/server/scaling/moved-database.test.ts",
  "test/server/scaling/runs-across-servers.test.ts",
  "test/server/scaling/two-servers.test.ts",
  "test/server/security/secrets.test.ts",
  "test/server/system/compression.test.ts",
  "test/server/system/config.test.ts",
  "test/server/system/errors.test.ts",
  "test/server/system/logging.test.ts",
  "test/server/system/spa.test.ts",
  "test/server/system/system.test.ts",
  "test/server/security/cross-site.test.ts",
  "test/server/security/injection.test.ts",
  "test/server/security/markup.test.ts",
  "test/server/openai/completions.test.ts",
  "test/server/openai/api-keys.test.ts",
  "test/server/chat/process.test.ts",
  "test/server/chat/adapters.test.ts",
  "test/server/chat/trust.test.ts",
  "test/server/system/metrics.test.ts",
  "test/server/security/authz-matrix.test.ts",
  "test/server/chat/recovery.test.ts",
  "test/server/account/delete-account.test.ts",
  "test/server/auth/smtp.test.ts",
  "test/server/accounts/rate-limits.test.ts",
  "test/server/accounts/privilege-changes.test.ts",
  "test/server/admin/admin-usage.test.ts",
  "test/server/accounts/secrets-at-rest.test.ts",
  "test/server/reliability/concurrency.test.ts",
  "test/server/openai/streaming.test.ts",
];
