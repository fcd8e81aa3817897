import { first } from "../db/transaction.ts";
import { atLeastZero, containsText, endsWithText, likeLiteral } from "../db/portable-sql.ts";
import { and, count, desc, eq, gte, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { contactMessages, mailOutbox, type Plan, purchases, rateLimits, type UserRow, users } from "../db/schema/index.ts";

/**
 * The plan as users see it (quota.ts effectivePlan), in SQL, so that
 * counting and filtering by plan happens in the database: a trial past its
 * end or out of requests is `expired`. Keep both definitions in step.
 */
function effectivePlanSql(now: Date): SQL<Plan> {
  return sql<Plan>`(CASE WHEN ${users.subscriptionType} = 'trial' AND (${users.trialEndsAt} IS NULL OR ${lte(users.trialEndsAt, now)} OR ${atLeastZero(users.planQueries)} + ${atLeastZero(users.extraQueries)} <= 0) THEN 'expired' ELSE ${users.subscriptionType} END)`;
}

/**
 * `%` and `_` typed by the operator are searched for literally. Both sides
 * lowered in SQL: SQLite's LIKE and lower() ignore case for ASCII only,
 * PostgreSQL's LIKE not at all (its lower() knows accents).
 */
function likePattern(q: string): string {
  return `%${likeLiteral(q)}%`;
}

export type UserFilter = { q?: string; plan?: Plan; now: Date };

function userWhere(f: UserFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.q) {
    const p = likePattern(f.q);
    parts.push(
      or(
        sql`lower(${users.email}) LIKE lower(${p}) ESCAPE '\\'`,
        sql`lower(${users.firstName} || ' ' || ${users.lastName}) LIKE lower(${p}) ESCAPE '\\'`,
        sql`lower(${users.lastName} || ' ' || ${users.firstName}) LIKE lower(${p}) ESCAPE '\\'`,
      )!,
    );
  }
  if (f.plan) parts.push(sql`${effectivePlanSql(f.now)} = ${f.plan}`);
  return parts.length ? and(...parts) : undefined;
}

/** One page of users, newest first (id breaks ties between users created in the same millisecond). */
export async function selectUsersPage(db: Db, f: UserFilter & { limit: number; offset: number }): Promise<{ rows: UserRow[]; total: number }> {
  const where = userWhere(f);
  const rows = await db.select().from(users).where(where).orderBy(desc(users.createdAt), desc(users.id)).limit(f.limit).offset(f.offset);
  const total = (await first(db.select({ n: count() }).from(users).where(where)))?.n ?? 0;
  return { rows, total };
}

export async function countUsersSince(db: Db, since: Date): Promise<number> {
  return (await first(db.select({ n: count() }).from(users).where(gte(users.createdAt, since))))?.n ?? 0;
}

export async function countUsersByPlan(db: Db, now: Date): Promise<Array<{ plan: Plan; n: number }>> {
  const plan = effectivePlanSql(now);
  // By position: PostgreSQL would not see the select's expression in a GROUP BY whose parameters are bound apart.
  return await db.select({ plan, n: count() }).from(users).groupBy(sql`1`);
}

/** Completed (not refunded) purchases: their number and their sum in cents. */
export async function purchaseTotals(db: Db): Promise<{ cents: number; completed: number }> {
  const row = await first(
    db
      .select({ cents: sql<number>`coalesce(sum(${purchases.amountCents}), 0)`, completed: count() })
      .from(purchases)
      .where(eq(purchases.status, "completed")),
  );
  return { cents: Number(row?.cents ?? 0), completed: row?.completed ?? 0 };
}

/**
 * Erases the account: the user row (the cascades take conversations,
 * sessions, devices, codes, links, runs), plus what names them without a
 * foreign key: their contact messages, the mails kept to or about them and
 * the rate-limit counters kept under their e-mail. Purchases,
 * fulfilments and AI-call counts stay, their user_id set null: anonymised
 * records that accounting law requires. Call inside a transaction.
 */
export async function deleteUserRow(db: Db, userId: number): Promise<boolean> {
  const user = await first(db.select({ email: users.email }).from(users).where(eq(users.id, userId)));
  if (!user) return false;
  const email = user.email.toLowerCase();
  await db.delete(contactMessages).where(or(eq(contactMessages.userId, userId), sql`lower(${contactMessages.email}) = ${email}`));
  // Mails to them, and mails about them (their contact messages' copies to support).
  await db.delete(mailOutbox).where(or(sql`lower(${mailOutbox.to}) = ${email}`, containsText(sql`lower(${mailOutbox.text})`, email)));
  // Per-e-mail counters (login failures, reset and code requests) name them too: "<kind>:<rule>:<e-mail>".
  await db.delete(rateLimits).where(endsWithText(rateLimits.key, `:${email}`));
  return (await db.delete(users).where(eq(users.id, userId)).returning({ id: users.id })).length > 0;
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** The last mails, newest first. */
export async function selectRecentMail(db: Db, limit: number): Promise<OutboxRow[]> {
  return await db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)).limit(limit);
}
