import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";

/**
 * Fixed-window rate-limit counters, one row per key ("ip:auth.login:203.0.113.7",
 * "key:spend.chat.day:42"...). In the database, so a restart resets nothing and
 * a second process or the CLI shares them (docs/SECURITY.md, "Rate limits").
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    /** Milliseconds: when this window closes. */
    resetAt: integer("reset_at").notNull(),
  },
  (t) => [index("rate_limits_reset_idx").on(t.resetAt)],
);

/**
 * Who did what to which account, from the admin API or the CLI (docs/SECURITY.md, "Audit log").
 * `actor` is "admin:<id> <email>" or "cli"; `changes` is JSON { field: [before, after] }.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: timestamp("at").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    /** The account acted on, by e-mail (kept when the account is deleted). */
    targetEmail: text("target_email"),
    changes: text("changes"),
  },
  (t) => [index("audit_log_target_idx").on(t.targetEmail, t.at)],
);
