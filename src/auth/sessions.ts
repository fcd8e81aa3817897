import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { type Db, placeholderTime } from "../db/client.ts";
import { sessions, type UserRow, users } from "../db/schema/index.ts";
import { DAY, HOUR } from "../lib/clock.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";

/** Sliding: 30 days after the last use. */
const SESSION_TTL_MS = 30 * DAY;
/** Absolute: no session outlives 90 days after its sign-in, however often it is used (docs/SECURITY.md). */
const SESSION_MAX_AGE_MS = 90 * DAY;

/** The sliding expiry, never past the absolute one. */
function expiryFrom(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_TTL_MS, createdAt.getTime() + SESSION_MAX_AGE_MS));
}

/** Opens a session and returns its bearer token (only the hash is stored). */
export async function createSession(db: Db, userId: number, now: Date, meta: { ip?: string | null; userAgent?: string | null } = {}): Promise<string> {
  const token = randomToken(32);
  await db.insert(sessions).values({
    userId,
    tokenHash: sha256(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: expiryFrom(now, now),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}

function prepareLookups(db: Db) {
  return {
    session: db
      .select({ id: sessions.id, userId: sessions.userId, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(and(eq(sessions.tokenHash, sql.placeholder("hash")), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder("now"))))
      .prepare(),
    user: db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
  };
}

/**
 * Every authenticated request runs these lookups, so they are built and
 * prepared once per database. Measured on /api/auth/me (docs/BENCHMARKS.md,
 * "API throughput"): building the drizzle query on each call cost ~10x the
 * lookup itself, and one JOIN of sessions and users read through bun:sqlite
 * cost ~6x two primary-key/unique-index reads.
 */
// Module state: statements keyed by their database (deps.db), gone with it; two apps never share one.
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookups>>();

/** The live session of a bearer token and its user, or undefined (unknown, expired or revoked). */
export async function findSession(db: Db, token: string, now: Date): Promise<{ sessionId: number; user: UserRow } | undefined> {
  let lookup = lookups.get(db);
  if (!lookup) lookups.set(db, (lookup = prepareLookups(db)));
  // Placeholders bind raw driver values (milliseconds on SQLite).
  const [session] = await lookup.session.execute({ hash: sha256(token), now: placeholderTime(db, now) });
  if (!session) return undefined;
  // A user deleted between the two reads took their sessions with them (cascade): no session then.
  const [user] = await lookup.user.execute({ id: session.userId });
  if (!user) return undefined;
  // Sliding expiry, written at most once an hour so reads stay reads.
  if (now.getTime() - session.lastSeenAt.getTime() > HOUR) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: expiryFrom(session.createdAt, now) })
      .where(eq(sessions.id, session.id));
  }
  return { sessionId: session.id, user };
}

export async function revokeSession(db: Db, sessionId: number, now: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/** Revokes every live session of the user, except `keepId` (the one making the change, when it is theirs). */
export async function revokeAllSessions(db: Db, userId: number, now: Date, keepId?: number): Promise<void> {
  const conds = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepId !== undefined) conds.push(ne(sessions.id, keepId));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(...conds));
}
