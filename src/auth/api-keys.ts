import { first, one } from "../db/transaction.ts";
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { transaction } from "../db/transaction.ts";
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
export async function listApiKeys(db: Db, userId: number): Promise<ApiKeyRow[]> {
  return await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

async function countApiKeys(db: Db, userId: number): Promise<number> {
  return (
    (
      await first(
        db
          .select({ n: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt))),
      )
    )?.n ?? 0
  );
}

/** Live keys per user, for a page of the admin panel (one grouped query). */
export async function countApiKeysByUser(db: Db, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: apiKeys.userId, n: count() })
    .from(apiKeys)
    .where(and(inArray(apiKeys.userId, userIds), isNull(apiKeys.revokedAt)))
    .groupBy(apiKeys.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
}

/**
 * Creates a key and returns its secret, the only time it exists in clear:
 * `uns_` + 43 base64url characters (256 random bits). The count and the
 * insert share one write transaction, so two creations at once cannot pass 10.
 */
export async function createApiKey(db: Db, userId: number, name: string, now: Date): Promise<{ key: PublicApiKey; secret: string }> {
  const secret = API_KEY_PREFIX + randomToken(32);
  const row = await transaction(db, async (tx) => {
    if ((await countApiKeys(tx, userId)) >= MAX_API_KEYS) throw new AppError("API_KEY_LIMIT");
    return await one(
      tx
        .insert(apiKeys)
        .values({ userId, name, prefix: secret.slice(0, SHOWN_CHARS), tokenHash: sha256(secret), createdAt: now })
        .returning(),
    );
  });
  return { key: toPublicApiKey(row), secret };
}

/** Revokes one of the user's keys at once; another user's key reads like a missing one. */
export async function revokeApiKey(db: Db, userId: number, id: number, now: Date): Promise<void> {
  const done = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (done.length === 0) throw new AppError("API_KEY_NOT_FOUND");
}

/** Every key of the account (account deletion, and every change revokeCredentials covers). */
export async function revokeAllApiKeys(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
}

/** The live key of a bearer secret and its user, or undefined; records the use. Only /v1 calls this. */
export async function findApiKey(db: Db, secret: string, now: Date): Promise<{ key: ApiKeyRow; user: UserRow } | undefined> {
  if (!secret.startsWith(API_KEY_PREFIX)) return undefined;
  const found = await first(
    db
      .select({ key: apiKeys, user: users })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.tokenHash, sha256(secret)), isNull(apiKeys.revokedAt))),
  );
  if (!found) return undefined;
  if (!found.key.lastUsedAt || now.getTime() - found.key.lastUsedAt.getTime() > LAST_USE_EVERY_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, found.key.id));
  }
  return found;
}
