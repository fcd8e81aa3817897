import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions, type UserRow, users } from "../db/schema/index.ts";
import { DAY, HOUR } from "../lib/clock.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";

export const SESSION_TTL_MS = 30 * DAY;

/** Opens a session and returns its bearer token (only the hash is stored). */
export function createSession(
  db: Db,
  userId: number,
  now: Date,
  meta: { ip?: string | null; userAgent?: string | null } = {},
): string {
  const token = randomToken(32);
  db.insert(sessions)
    .values({
      userId,
      tokenHash: sha256(token),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .run();
  return token;
}

/** The live session of a bearer token and its user, or undefined (unknown, expired or revoked). */
export function findSession(db: Db, token: string, now: Date): { sessionId: number; user: UserRow } | undefined {
  const row = db
    .select({ sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .get();
  if (!row) return undefined;
  // Sliding expiry, written at most once an hour so reads stay reads.
  if (now.getTime() - row.lastSeenAt.getTime() > HOUR) {
    db.update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
      .where(eq(sessions.id, row.sessionId))
      .run();
  }
  return { sessionId: row.sessionId, user: row.user };
}

export function revokeSession(db: Db, sessionId: number, now: Date): void {
  db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId)).run();
}

export function revokeAllSessions(db: Db, userId: number, now: Date): void {
  db.update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .run();
}
