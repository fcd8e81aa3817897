import type { Columns } from "./columns.ts";
import type { UserTables } from "./users.ts";

export function authTables(c: Columns, { users }: UserTables) {
  const userRef = () =>
    c
      .int("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" });

  /** Opaque bearer sessions; only the SHA-256 of the token is stored. */
  const sessions = c.table(
    "sessions",
    {
      id: c.id(),
      userId: userRef(),
      tokenHash: c.text("token_hash").notNull().unique(),
      createdAt: c.timestamp("created_at").notNull(),
      expiresAt: c.timestamp("expires_at").notNull(),
      lastSeenAt: c.timestamp("last_seen_at").notNull(),
      revokedAt: c.timestamp("revoked_at"),
      ip: c.text("ip"),
      userAgent: c.text("user_agent"),
    },
    (t) => [c.index("sessions_user_idx").on(t.userId)],
  );

  /** Devices that skip two-factor for 30 days (HttpOnly cookie, hashed here). */
  const rememberedDevices = c.table(
    "remembered_devices",
    {
      id: c.id(),
      userId: userRef(),
      tokenHash: c.text("token_hash").notNull().unique(),
      createdAt: c.timestamp("created_at").notNull(),
      expiresAt: c.timestamp("expires_at").notNull(),
      revokedAt: c.timestamp("revoked_at"),
    },
    (t) => [c.index("remembered_devices_user_idx").on(t.userId)],
  );

  /** E-mail two-factor codes: 6 digits, hashed, 10 minutes, at most 5 wrong tries. */
  const twoFactorCodes = c.table(
    "two_factor_codes",
    {
      id: c.id(),
      userId: userRef(),
      codeHash: c.text("code_hash").notNull(),
      createdAt: c.timestamp("created_at").notNull(),
      expiresAt: c.timestamp("expires_at").notNull(),
      failedAttempts: c.int("failed_attempts").notNull().default(0),
      /** SHA-256 of the pending-login id the code was asked for; null for a client that sends none (the spec's). */
      loginHash: c.text("login_hash"),
      /** Set when used, replaced by a newer code, or killed by too many tries. */
      endedAt: c.timestamp("ended_at"),
    },
    (t) => [c.index("two_factor_codes_user_idx").on(t.userId, t.createdAt)],
  );

  /** Failed security checks per account (two-factor codes), for the 10-in-15-minutes limit. */
  const authFailures = c.table(
    "auth_failures",
    {
      id: c.id(),
      userId: userRef(),
      kind: c.text("kind", { enum: ["two_factor", "login"] }).notNull(),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("auth_failures_user_idx").on(t.userId, t.kind, t.createdAt)],
  );

  /** Password reset links: single use, 1 hour, hashed. */
  const passwordResetTokens = c.table(
    "password_reset_tokens",
    {
      id: c.id(),
      userId: userRef(),
      tokenHash: c.text("token_hash").notNull().unique(),
      createdAt: c.timestamp("created_at").notNull(),
      expiresAt: c.timestamp("expires_at").notNull(),
      usedAt: c.timestamp("used_at"),
    },
    (t) => [c.index("password_reset_tokens_user_idx").on(t.userId)],
  );

  /**
   * Personal API keys for the OpenAI-compatible /v1 endpoint. Like sessions,
   * only the SHA-256 of the secret is stored; `prefix` (the first characters,
   * shown in lists) lets the owner recognise a key without revealing it.
   */
  const apiKeys = c.table(
    "api_keys",
    {
      id: c.id(),
      userId: userRef(),
      name: c.text("name").notNull(),
      prefix: c.text("prefix").notNull(),
      tokenHash: c.text("token_hash").notNull().unique(),
      createdAt: c.timestamp("created_at").notNull(),
      lastUsedAt: c.timestamp("last_used_at"),
      revokedAt: c.timestamp("revoked_at"),
    },
    (t) => [c.index("api_keys_user_idx").on(t.userId)],
  );

  return { sessions, rememberedDevices, twoFactorCodes, authFailures, passwordResetTokens, apiKeys };
}
