import type { Columns } from "./columns.ts";

export function securityTables(c: Columns) {
  /**
   * Fixed-window rate-limit counters, one row per key ("ip:auth.login:203.0.113.7",
   * "key:spend.chat.day:42"...). In the database, so a restart resets nothing and
   * a second process or the CLI shares them (docs/SECURITY.md, "Rate limits").
   */
  const rateLimits = c.table(
    "rate_limits",
    {
      key: c.text("key").primaryKey(),
      count: c.int("count").notNull(),
      /** Milliseconds: when this window closes. */
      resetAt: c.bigint("reset_at").notNull(),
    },
    (t) => [c.index("rate_limits_reset_idx").on(t.resetAt)],
  );

  /**
   * Who did what to which account, from the admin API or the CLI (docs/SECURITY.md, "Audit log").
   * `actor` is "admin:<id> <email>" or "cli"; `changes` is JSON { field: [before, after] }.
   */
  const auditLog = c.table(
    "audit_log",
    {
      id: c.id(),
      at: c.timestamp("at").notNull(),
      actor: c.text("actor").notNull(),
      action: c.text("action").notNull(),
      /** The account acted on, by e-mail (kept when the account is deleted). */
      targetEmail: c.text("target_email"),
      changes: c.text("changes"),
    },
    (t) => [c.index("audit_log_target_idx").on(t.targetEmail, t.at)],
  );
  return { rateLimits, auditLog };
}
