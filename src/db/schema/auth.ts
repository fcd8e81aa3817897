import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";

const userRef = () =>
  integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

/** Opaque bearer sessions; only the SHA-256 of the token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    lastSeenAt: timestamp("last_seen_at").notNull(),
    revokedAt: timestamp("revoked_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Devices that skip two-factor for 30 days (HttpOnly cookie, hashed here). */
export const rememberedDevices = sqliteTable(
  "remembered_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    revokedAt: timestamp("revoked_at"),
  },
  (t) => [index("remembered_devices_user_idx").on(t.userId)],
);

/** E-mail two-factor codes: 6 digits, hashed, 10 minutes, at most 5 wrong tries. */
export const twoFactorCodes = sqliteTable(
  "two_factor_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    codeHash: text("code_hash").notNull(),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    /** SHA-256 of the pending-login id the code was asked for; null for a client that sends none (the spec's). */
    loginHash: text("login_hash"),
    /** Set when used, replaced by a newer code, or killed by too many tries. */
    endedAt: timestamp("ended_at"),
  },
  (t) => [index("two_factor_codes_user_idx").on(t.userId, t.createdAt)],
);

/** Failed security checks per account (two-factor codes), for the 10-in-15-minutes limit. */
export const authFailures = sqliteTable(
  "auth_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    kind: text("kind", { enum: ["two_factor", "login"] }).notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("auth_failures_user_idx").on(t.userId, t.kind, t.createdAt)],
);

/** Password reset links: single use, 1 hour, hashed. */
export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    usedAt: timestamp("used_at"),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/**
 * Personal API keys for the OpenAI-compatible /v1 endpoint. Like sessions,
 * only the SHA-256 of the secret is stored; `prefix` (the first characters,
 * shown in lists) lets the owner recognise a key without revealing it.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: userRef(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at").notNull(),
    lastUsedAt: timestamp("last_used_at"),
    revokedAt: timestamp("revoked_at"),
  },
  (t) => [index("api_keys_user_idx").on(t.userId)],
);
