import { first, forUpdate } from "../db/transaction.ts";
import { atLeastZero, atMost } from "../db/portable-sql.ts";
import { and, desc, eq, gt, lte, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { billingChanges, type UserRow, users } from "../db/schema/index.ts";

/**
 * The only SQL that writes the entitlement columns of `users` (plan, cycle,
 * dates, both balances, the Stripe subscription). Only entitlements.ts calls
 * the writers here; test/server/billing/entitlements-owner.test.ts checks that
 * no other file writes these columns.
 */
export type EntitlementValues = Partial<
  Pick<
    UserRow,
    | "subscriptionType"
    | "billingCycle"
    | "planQueries"
    | "trialEndsAt"
    | "planStartedAt"
    | "quotaRenewsAt"
    | "periodEndsAt"
    | "stripeSubscriptionId"
    | "stripeCustomerId"
  >
>;

/** One UPDATE of the given columns; `guard` adds conditions (the state the caller read), so a concurrent writer wins cleanly. */
export async function writeEntitlements(db: Db, userId: number, values: EntitlementValues, now: Date, guard?: SQL): Promise<UserRow | undefined> {
  return await first(
    db
      .update(users)
      .set({ ...values, updatedAt: now })
      .where(guard ? and(eq(users.id, userId), guard) : eq(users.id, userId))
      .returning(),
  );
}

/** Adds `delta` to plan_queries (an upgrade adds the new plan's allowance to what remains). */
export async function addPlanQueries(db: Db, userId: number, delta: number, now: Date): Promise<UserRow | undefined> {
  return await first(
    db
      .update(users)
      .set({ planQueries: sql`${users.planQueries} + ${delta}`, updatedAt: now })
      .where(eq(users.id, userId))
      .returning(),
  );
}

/**
 * Adds `delta` (negative: takes back) to one balance in one UPDATE, never
 * below zero nor above `max` when given. Returns the balance before and the
 * row after, so the caller knows how many really moved.
 */
export async function moveBalance(
  db: Db,
  userId: number,
  balance: "planQueries" | "extraQueries",
  delta: number,
  now: Date,
  max?: number,
): Promise<{ before: number; row: UserRow } | undefined> {
  const column = users[balance];
  // Locked until the transaction ends (PostgreSQL): `before` is still the balance the update moves.
  const before = (await first(forUpdate(db.select({ n: column }).from(users).where(eq(users.id, userId)))))?.n;
  if (before === undefined) return undefined;
  const sum = sql`${column} + ${delta}`;
  const moved = atLeastZero(max === undefined ? sum : atMost(sum, max));
  const row = (await first(
    db
      .update(users)
      .set({ [balance]: moved, updatedAt: now })
      .where(eq(users.id, userId))
      .returning(),
  ))!;
  return { before, row };
}

/** Sets both balances (admin's "remaining requests"). */
export async function writeBalances(db: Db, userId: number, planQueries: number, extraQueries: number, now: Date): Promise<UserRow | undefined> {
  return await first(db.update(users).set({ planQueries, extraQueries, updatedAt: now }).where(eq(users.id, userId)).returning());
}

/** The SQL twin of effectivePlan(): a user who may spend a request right now. */
function activeAt(now: Date) {
  return and(ne(users.subscriptionType, "expired"), or(ne(users.subscriptionType, "trial"), gt(users.trialEndsAt, now)));
}

export type QuotaSource = "plan" | "extra";

/**
 * Spends one request: plan_queries first, then extra_queries. Each balance is
 * taken with one conditional UPDATE whose WHERE does all the checking (active
 * plan, balance above zero), so concurrent spends never read-then-write and
 * never go below zero; the second statement runs only when the first matched
 * nothing. Returns the balance it came from (refunds go back there), or null
 * when refused (trial over, plan expired, nothing left).
 */
export async function spendOneQuery(db: Db, userId: number, now: Date): Promise<QuotaSource | null> {
  const fromPlan = await first(
    db
      .update(users)
      .set({ planQueries: sql`${users.planQueries} - 1`, updatedAt: now })
      .where(and(eq(users.id, userId), activeAt(now), gt(users.planQueries, 0)))
      .returning({ id: users.id }),
  );
  if (fromPlan) return "plan";
  const fromExtra = await first(
    db
      .update(users)
      .set({ extraQueries: sql`${users.extraQueries} - 1`, updatedAt: now })
      .where(and(eq(users.id, userId), activeAt(now), gt(users.extraQueries, 0)))
      .returning({ id: users.id }),
  );
  return fromExtra ? "extra" : null;
}

/** Gives one request back to the balance it was spent from (final processing failed). */
export async function refundOneQuery(db: Db, userId: number, source: QuotaSource, now: Date): Promise<void> {
  const column = source === "plan" ? users.planQueries : users.extraQueries;
  await db
    .update(users)
    .set(source === "plan" ? { planQueries: sql`${column} + 1`, updatedAt: now } : { extraQueries: sql`${column} + 1`, updatedAt: now })
    .where(eq(users.id, userId));
}

/** Trials past their days or out of requests become `expired` (written, not only displayed). */
export async function expireTrialRows(db: Db, now: Date): Promise<Array<{ id: number }>> {
  return await db
    .update(users)
    .set({ subscriptionType: "expired", planQueries: 0, updatedAt: now })
    .where(and(eq(users.subscriptionType, "trial"), or(lte(users.trialEndsAt, now), sql`${users.planQueries} + ${users.extraQueries} <= 0`)))
    .returning({ id: users.id });
}

export type BillingChangeRow = typeof billingChanges.$inferSelect;
export type NewBillingChange = Omit<typeof billingChanges.$inferInsert, "id">;

export async function insertBillingChange(db: Db, row: NewBillingChange): Promise<void> {
  await db.insert(billingChanges).values(row);
}

/** An account's billing changes, newest first. */
export async function selectBillingChanges(db: Db, userId: number, limit = 50): Promise<BillingChangeRow[]> {
  return await db
    .select()
    .from(billingChanges)
    .where(eq(billingChanges.userId, userId))
    .orderBy(desc(billingChanges.createdAt), desc(billingChanges.id))
    .limit(limit);
}
