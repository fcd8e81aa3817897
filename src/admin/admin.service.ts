import { frDetails } from "../i18n/fr-details.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import type { BillingCycle, Plan, UserRow } from "../db/schema/index.ts";
import { countApiKeysByUser } from "../auth/api-keys.ts";
import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { revokeCredentials } from "../auth/revoke-access.ts";
import { addExtra, setRemaining, setTrialEnd } from "../billing/entitlements.ts";
import { assignPlan, stopSubscription } from "../billing/plan.service.ts";
import { DAY } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { deleteAccount } from "../users/account-deletion.ts";
import { findUserByEmail, findUserById, normalizeEmail, updateUser } from "../users/users.queries.ts";
import { effectivePlan, remainingQueries, trialDaysRemaining } from "../users/quota.ts";
import { type PublicUser, toPublicUser } from "../users/users.view.ts";
import { countUsersByPlan, countUsersSince, purchaseTotals, selectRecentMail, selectUsersPage } from "./admin.queries.ts";
import { MAX_QUERIES } from "./admin.schemas.ts";

/**
 * What an administrator does to accounts, shared by the admin API and the
 * operator CLI. Inputs arrive validated (admin.schemas.ts); the rules live here.
 */

export async function getUserOrFail(deps: Pick<Deps, "db">, id: number): Promise<UserRow> {
  const user = await findUserById(deps.db, id);
  if (!user) throw new AppError("USER_NOT_FOUND");
  return user;
}

/** The CLI names accounts by e-mail. */
export async function getUserByEmailOrFail(deps: Pick<Deps, "db">, email: string): Promise<UserRow> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new AppError("USER_NOT_FOUND", frDetails.userNotFound(normalizeEmail(email)));
  return user;
}

export type AdminStats = {
  total_users: number;
  /** Euros, from recorded completed (not refunded) purchases. */
  total_revenue: number;
  completed_purchases: number;
  recent_users_7_days: number;
  /** Every plan appears, counted by effective plan (a trial past its end is expired). */
  users_by_subscription: Record<Plan, number>;
};

export async function getStats(deps: Pick<Deps, "db" | "clock">): Promise<AdminStats> {
  const now = deps.clock.now();
  const byPlan: Record<Plan, number> = { trial: 0, basic: 0, pro: 0, expired: 0 };
  for (const { plan, n } of await countUsersByPlan(deps.db, now)) byPlan[plan] = n;
  const { cents, completed } = await purchaseTotals(deps.db);
  return {
    total_users: Object.values(byPlan).reduce((a, b) => a + b, 0),
    total_revenue: Math.round(cents) / 100,
    completed_purchases: completed,
    recent_users_7_days: await countUsersSince(deps.db, new Date(now.getTime() - 7 * DAY)),
    users_by_subscription: byPlan,
  };
}

export type ListUsersInput = { page?: number; perPage?: number; q?: string; plan?: Plan };
/** A row of the panel's user list: the public user and how many live API keys it holds. */
export type AdminUserRow = PublicUser & { api_keys: number };
export type UserPage = { users: AdminUserRow[]; total: number; page: number; per_page: number };

/** Newest first; a page past the end is empty, with the true total. */
export async function listUsers(deps: Pick<Deps, "db" | "clock">, input: ListUsersInput = {}): Promise<UserPage> {
  const now = deps.clock.now();
  const page = input.page ?? 1;
  const perPage = input.perPage ?? 10;
  const { rows, total } = await selectUsersPage(deps.db, {
    q: input.q || undefined,
    plan: input.plan,
    now,
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  const keys = await countApiKeysByUser(
    deps.db,
    rows.map((u) => u.id),
  );
  return { users: rows.map((u) => ({ ...toPublicUser(u, now), api_keys: keys.get(u.id) ?? 0 })), total, page, per_page: perPage };
}

export type AdminUserPatch = {
  firstName?: string;
  lastName?: string;
  email?: string;
  plan?: Plan;
  /** With a paid plan; monthly when left out. */
  cycle?: BillingCycle;
  remainingQueries?: number;
  trialDaysRemaining?: number;
};

/**
 * The admin edit form sends every field, changed or not, so a field is
 * applied only when it differs from what the admin saw (the user as it is now):
 * saving an untouched form changes nothing, not even the trial end.
 * - plan: assignPlan, which sets the allowance and a renewal date;
 * - remaining_queries N: the sum becomes N, extra requests kept first, capped at N;
 * - trial_days_remaining N: the trial ends N days from now.
 * All in one transaction: a refused step leaves the account as it was.
 */
export async function updateUserByAdmin(
  deps: Pick<Deps, "db" | "clock">,
  id: number,
  patch: AdminUserPatch,
  actor = "cli",
  actorSessionId?: number,
): Promise<UserRow> {
  const now = deps.clock.now();
  const email = patch.email === undefined ? undefined : normalizeEmail(patch.email);
  try {
    return await transaction(deps.db, async (tx) => {
      const before = await getUserOrFail({ ...deps, db: tx }, id);
      if (email !== undefined && email !== before.email && (await findUserByEmail(tx, email))) throw new AppError("EMAIL_TAKEN");
      await updateUser(tx, id, {
        ...(patch.firstName !== undefined && { firstName: patch.firstName.trim() }),
        ...(patch.lastName !== undefined && { lastName: patch.lastName.trim() }),
        ...(email !== undefined && { email }),
        updatedAt: now,
      });
      // A new address is a new identity: sessions, devices and links of the old one end.
      if (email !== undefined && email !== before.email) await revokeCredentials(tx, id, now, actorSessionId);
      if (patch.plan !== undefined && patch.plan !== effectivePlan(before, now)) {
        await assignPlan({ ...deps, db: tx }, id, { plan: patch.plan, cycle: patch.cycle }, actor);
      }
      let current = await getUserOrFail({ ...deps, db: tx }, id);
      if (patch.remainingQueries !== undefined && patch.remainingQueries !== remainingQueries(before)) {
        current = await setRemaining(tx, now, current, patch.remainingQueries, {
          actor,
          action: "balance",
          detail: frBilling.change.balanceSet(patch.remainingQueries),
        });
      }
      if (patch.trialDaysRemaining !== undefined && patch.trialDaysRemaining !== trialDaysRemaining(before, now) && current.subscriptionType === "trial") {
        current = await setTrialEnd(tx, now, id, new Date(now.getTime() + patch.trialDaysRemaining * DAY), {
          actor,
          action: "trial",
          detail: frBilling.change.trialSet(patch.trialDaysRemaining),
        });
      }
      return current;
    });
  } catch (e) {
    // Another account took the address between the check and the write: the unique index decides.
    if (!(e instanceof AppError) && String(e).includes("UNIQUE")) throw new AppError("EMAIL_TAKEN");
    throw e;
  }
}

/** "Expiré" chosen for an account with a live Stripe subscription: cancelled at Stripe first (plan.service stopSubscription). */
export async function stopSubscriptionOf(deps: Deps, id: number, actor: string): Promise<void> {
  const user = await getUserOrFail(deps, id);
  if (user.stripeSubscriptionId) await stopSubscription(deps, id, actor);
}

/** Extra requests (never expire, survive renewals): added in one UPDATE. */
export async function grantExtra(deps: Pick<Deps, "db" | "clock">, id: number, n: number, actor = "cli"): Promise<UserRow> {
  if (!Number.isInteger(n) || n < 1 || n > MAX_QUERIES) {
    throw new AppError("VALIDATION", frDetails.grantRange(MAX_QUERIES));
  }
  return await addExtra(deps.db, deps.clock.now(), id, n, { actor, action: "grant", detail: frBilling.change.granted(n) });
}

/** Granting or removing admin ends every session and remembered device: the new rights start at the next sign-in (with two-factor). */
export async function setAdmin(deps: Pick<Deps, "db" | "clock">, id: number, on: boolean): Promise<UserRow> {
  const now = deps.clock.now();
  return await transaction(deps.db, async (tx) => {
    const row = await updateUser(tx, id, { isAdmin: on, updatedAt: now });
    if (!row) throw new AppError("USER_NOT_FOUND");
    await revokeCredentials(tx, id, now);
    return row;
  });
}

export async function setTwoFactor(deps: Pick<Deps, "db" | "clock">, id: number, on: boolean): Promise<UserRow> {
  const row = await updateUser(deps.db, id, { twoFactorEnabled: on, updatedAt: deps.clock.now() });
  if (!row) throw new AppError("USER_NOT_FOUND");
  return row;
}

/**
 * Deletes the account (users/account-deletion.ts: its Stripe subscription
 * cancelled first, or nothing done). `actorId` is the admin acting through
 * the API, who may not delete themself.
 */
export async function deleteUserByAdmin(deps: Deps, id: number, actorId?: number): Promise<void> {
  if (actorId !== undefined && actorId === id) throw new AppError("ADMIN_SELF_DELETE");
  await deleteAccount(deps, id, actorId === undefined ? "cli" : `admin:${actorId}`);
}

/** The last mails the product sent or kept (the outbox without SMTP). */
export async function listMail(deps: Pick<Deps, "db">, last = 20) {
  return await selectRecentMail(deps.db, last);
}
