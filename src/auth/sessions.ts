import { and, eq, gt, isNull, sql } from "drizzle-orm";
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

function prepareSessionLookup(db: Db) {
  return db
    .select({ sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder("hash")), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder("now"))))
    .prepare();
}

/**
 * Every authenticated request runs this lookup, so it is built and prepared
 * once per database: drizzle's query building alone cost ~10x the SQLite
 * lookup and held /api/auth/me to a fraction of a bare server's throughput
 * (docs/BENCHMARKS.md, "API throughput").
 */
const lookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

/** The live session of a bearer token and its user, or undefined (unknown, expired or revoked). */
export function findSession(db: Db, token: string, now: Date): { sessionId: number; user: UserRow } | undefined {
  let lookup = lookups.get(db);
  if (!lookup) lookups.set(db, (lookup = prepareSessionLookup(db)));
  // Placeholders bind raw driver values: expires_at is stored in milliseconds.
  const row = lookup.get({ hash: sha256(token), now: now.getTime() });
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
