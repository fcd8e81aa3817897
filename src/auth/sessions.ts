import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { type Db, placeholderTime } from "../db/client.ts";
import { sessions, type UserRow, users } from "../db/schema/index.ts";
import { DAY, HOUR } from "../lib/clock.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";
import type { PublicUserRow } from "../users/users.view.ts";

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

/**
 * LIMIT 1 written into the statement: drizzle binds a number as a parameter,
 * and with a bound LIMIT (or none) bun:sqlite ran the lookup below ~10 µs
 * slower, for the same plan (docs/BENCHMARKS.md, "Per-request cost").
 */
const ONE_ROW = sql.raw("1") as unknown as number;

/** The columns of the user that /api/auth/me shows (toPublicUser, users.view.ts): half the row, no secret. */
const PUBLIC_USER_COLUMNS = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  subscriptionType: users.subscriptionType,
  planQueries: users.planQueries,
  extraQueries: users.extraQueries,
  trialEndsAt: users.trialEndsAt,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
} satisfies Record<keyof PublicUserRow, unknown>;

/**
 * The live session of a token hash and its user in one statement: the
 * session found by the token's unique index (a one-row subquery, which
 * SQLite runs as a co-routine), joined to its user. One read where there
 * were two: on SQLite one read transaction instead of two (each takes and
 * drops the WAL read lock, ~2 µs), on PostgreSQL one round trip instead of
 * two. It replaced one scalar subquery per session column (each an index
 * search of its own: ~0.7 µs more). The user's columns are the whole row, or
 * the ones /api/auth/me shows (each column read and mapped costs: ~0.6 µs
 * for the other ten, docs/BENCHMARKS.md, "Third round").
 */
function prepareLookup<U extends typeof users | typeof PUBLIC_USER_COLUMNS>(db: Db, user: U) {
  const live = db
    .select({ id: sessions.id, userId: sessions.userId, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, sql.placeholder("hash")), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder("now"))))
    .limit(ONE_ROW)
    .as("live_session");
  return db
    .select({ user, sessionId: live.id, createdAt: live.createdAt, lastSeenAt: live.lastSeenAt })
    .from(live)
    .innerJoin(users, eq(users.id, live.userId))
    .prepare();
}

type Lookup<R> = { execute(values: Record<string, unknown>): Promise<Array<{ user: R; sessionId: number; createdAt: Date; lastSeenAt: Date }>> };

/**
 * Every authenticated request runs this lookup, so it is built and prepared
 * once per database: building the drizzle query on each call cost ~10x the
 * lookup itself (docs/BENCHMARKS.md, "API throughput").
 */
// Module state: statements keyed by their database (deps.db), gone with it; two apps never share one.
const lookups = new WeakMap<Db, { full: Lookup<UserRow>; shown: Lookup<PublicUserRow> }>();

function lookupsOf(db: Db) {
  let found = lookups.get(db);
  if (!found) lookups.set(db, (found = { full: prepareLookup(db, users), shown: prepareLookup(db, PUBLIC_USER_COLUMNS) }));
  return found;
}

async function liveSession<R>(db: Db, lookup: Lookup<R>, token: string, now: Date): Promise<{ sessionId: number; user: R } | undefined> {
  // Placeholders bind raw driver values (milliseconds on SQLite). No row: no live session, or its user deleted with it (cascade).
  const [found] = await lookup.execute({ hash: sha256(token), now: placeholderTime(db, now) });
  if (!found) return undefined;
  const { user, sessionId, createdAt, lastSeenAt } = found;
  // Sliding expiry, written at most once an hour so reads stay reads.
  if (now.getTime() - lastSeenAt.getTime() > HOUR) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: expiryFrom(createdAt, now) })
      .where(eq(sessions.id, sessionId));
  }
  return { sessionId, user };
}

/** The live session of a bearer token and its user, or undefined (unknown, expired or revoked). */
export function findSession(db: Db, token: string, now: Date): Promise<{ sessionId: number; user: UserRow } | undefined> {
  return liveSession(db, lookupsOf(db).full, token, now);
}

/** The same, with only the user's columns /api/auth/me shows. */
export function findSessionShown(db: Db, token: string, now: Date): Promise<{ sessionId: number; user: PublicUserRow } | undefined> {
  return liveSession(db, lookupsOf(db).shown, token, now);
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
