import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { immediate, type Db } from "../db/client.ts";
import { apiKeys, type UserRow, users } from "../db/schema/index.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";

/** Recognisable in a config file or a leaked log, and by secret scanners. */
const API_KEY_PREFIX = "uns_";
const MAX_API_KEYS = 10;
/** Characters of the secret kept in clear to tell keys apart in lists. */
const SHOWN_CHARS = API_KEY_PREFIX.length + 8;
/** last_used_at is written at most this often, so a busy key does not turn reads into writes. */
const LAST_USE_EVERY_MS = MINUTE;

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export type PublicApiKey = { id: number; name: string; prefix: string; created_at: string; last_used_at: string | null };

export function toPublicApiKey(k: ApiKeyRow): PublicApiKey {
  return { id: k.id, name: k.name, prefix: k.prefix, created_at: k.createdAt.toISOString(), last_used_at: k.lastUsedAt?.toISOString() ?? null };
}

/** The user's live keys, newest first. */
export function listApiKeys(db: Db, userId: number): ApiKeyRow[] {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .all();
}

function countApiKeys(db: Db, userId: number): number {
  return (
    db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .get()?.n ?? 0
  );
}

/** Live keys per user, for a page of the admin panel (one grouped query). */
export function countApiKeysByUser(db: Db, userIds: number[]): Map<number, number> {
  if (userIds.length === 0) return new Map();
  const rows = db
    .select({ userId: apiKeys.userId, n: count() })
    .from(apiKeys)
    .where(and(inArray(apiKeys.userId, userIds), isNull(apiKeys.revokedAt)))
    .groupBy(apiKeys.userId)
    .all();
  return new Map(rows.map((r) => [r.userId, r.n]));
}

/**
 * Creates a key and returns its secret, the only time it exists in clear:
 * `uns_` + 43 base64url characters (256 random bits). The count and the
 * insert share one write transaction, so two creations at once cannot pass 10.
 */
export function createApiKey(db: Db, userId: number, name: string, now: Date): { key: PublicApiKey; secret: string } {
  const secret = API_KEY_PREFIX + randomToken(32);
  const row = immediate(db, () => {
    if (countApiKeys(db, userId) >= MAX_API_KEYS) throw new AppError("API_KEY_LIMIT");
    return db
      .insert(apiKeys)
      .values({ userId, name, prefix: secret.slice(0, SHOWN_CHARS), tokenHash: sha256(secret), createdAt: now })
      .returning()
      .get();
  });
  return { key: toPublicApiKey(row), secret };
}

/** Revokes one of the user's keys at once; another user's key reads like a missing one. */
export function revokeApiKey(db: Db, userId: number, id: number, now: Date): void {
  const done = db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
    .all();
  if (done.length === 0) throw new AppError("API_KEY_NOT_FOUND");
}

/** Every key of the account (account deletion, password change by an operator). */
export function revokeAllApiKeys(db: Db, userId: number, now: Date): void {
  db.update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .run();
}

/** The live key of a bearer secret and its user, or undefined; records the use. Only /v1 calls this. */
export function findApiKey(db: Db, secret: string, now: Date): { key: ApiKeyRow; user: UserRow } | undefined {
  if (!secret.startsWith(API_KEY_PREFIX)) return undefined;
  const found = db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.tokenHash, sha256(secret)), isNull(apiKeys.revokedAt)))
    .get();
  if (!found) return undefined;
  if (!found.key.lastUsedAt || now.getTime() - found.key.lastUsedAt.getTime() > LAST_USE_EVERY_MS) {
    db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, found.key.id)).run();
  }
  return found;
}
