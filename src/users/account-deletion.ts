import { frDetails } from "../i18n/fr-details.ts";
import { frBilling } from "../i18n/fr-billing.ts";
import type { Deps } from "../deps.ts";
import { revokeAllApiKeys } from "../auth/api-keys.ts";
import { transaction } from "../db/transaction.ts";
import { AppError } from "../lib/errors.ts";
import { deleteUserRow } from "../admin/admin.queries.ts";
import { noteBillingChange } from "../billing/entitlements.ts";
import { cancelNow } from "../billing/subscription-sync.service.ts";
import { findUserById } from "./users.queries.ts";

/**
 * The one way an account is deleted (admin panel, CLI, and the user's own
 * deletion): its Stripe subscription is cancelled first, at once and with no
 * further invoice, so nothing keeps charging for a deleted account. If
 * Stripe refuses or cannot be reached, the deletion is refused and nothing
 * is changed. Then the row goes, with its conversations, sessions and codes
 * through the foreign keys' cascades; purchases and billing records stay for
 * accounting with user_id set null. `actor`: "cli", "admin:<id>", "user:<id>".
 */
export async function deleteAccount(deps: Deps, userId: number, actor: string): Promise<void> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError("USER_NOT_FOUND");
  const subId = user.stripeSubscriptionId;
  if (subId) {
    if (!deps.stripe) throw new AppError("SUBSCRIPTION_CANCEL_FAILED", frDetails.cancelWithoutStripe);
    try {
      await cancelNow(deps, subId);
    } catch {
      deps.log.warn("account deletion refused: subscription not cancelled", { user_id: userId, subscription: subId });
      throw new AppError("SUBSCRIPTION_CANCEL_FAILED");
    }
  }
  const now = deps.clock.now();
  await transaction(deps.db, async (tx) => {
    if (subId) await noteBillingChange(tx, now, userId, { actor, action: "deletion", detail: frBilling.change.deletion(userId, subId), stripeRef: subId });
    // Explicit, not only by cascade: a deletion path that keeps the row (soft delete) still closes /v1.
    await revokeAllApiKeys(tx, userId, now);
    if (!(await deleteUserRow(tx, userId))) throw new AppError("USER_NOT_FOUND");
  });
  deps.log.info("account deleted", { user_id: userId, actor, subscription_cancelled: subId ?? null });
}
