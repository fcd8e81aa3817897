import { frBilling } from "../i18n/fr-billing.ts";
import { transaction } from "../db/transaction.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { findUserById } from "../users/users.queries.ts";
import { endPlan, grantPlan, type PlanInput } from "./entitlements.ts";
import { cancelNow } from "./subscription-sync.service.ts";
import { CYCLE_NAMES, PLAN_NAMES } from "../contracts/pricing.ts";

/**
 * Manual assignment (CLI `users set-plan`, admin panel): sets the plan and
 * cycle from now, a month of quota ahead, the period end a month or a year
 * ahead, the allowance reset, extra requests kept; a pending change is
 * dropped. Refused for an account whose plan a Stripe subscription drives:
 * only Stripe changes what Stripe charges for (the user's "Changer de
 * forfait", or deleting the account, which cancels the subscription).
 * `actor` is who acts ("cli", "admin:<id>"), recorded with the change.
 */
export async function assignPlan(deps: Pick<Deps, "db" | "clock">, userId: number, input: PlanInput, actor = "cli"): Promise<UserRow> {
  const now = deps.clock.now();
  return await transaction(deps.db, async (tx) => {
    const user = await findUserById(tx, userId);
    if (!user) throw new AppError("USER_NOT_FOUND");
    if (user.stripeSubscriptionId) throw new AppError("PLAN_MANAGED_BY_STRIPE");
    const cycle = input.plan === "basic" || input.plan === "pro" ? (input.cycle ?? "monthly") : null;
    const label = `${PLAN_NAMES[input.plan]}${cycle ? ` (${CYCLE_NAMES[cycle]})` : ""}`;
    return await grantPlan(tx, now, userId, input, { actor, action: "plan", detail: frBilling.change.grantedWithoutPayment(label) });
  });
}

/**
 * An operator ends a Stripe subscriber's plan (`set-plan expired`, the admin
 * panel's "Expiré"): through Stripe first, the subscription cancelled at once
 * with no further invoice, then the plan expired here. If Stripe refuses,
 * nothing changes. Other plan changes of a subscriber are refused (above).
 */
export async function stopSubscription(deps: Deps, userId: number, actor: string): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError("USER_NOT_FOUND");
  const subId = user.stripeSubscriptionId;
  if (!subId) return await assignPlan(deps, userId, { plan: "expired" }, actor);
  if (!deps.stripe) throw new AppError("PAYMENTS_DISABLED");
  await cancelNow(deps, subId);
  const now = deps.clock.now();
  return await transaction(
    deps.db,
    async (tx) => await endPlan(tx, now, userId, { actor, action: "plan", detail: frBilling.change.cancelledByOperator(subId), stripeRef: subId }),
  );
}
