import { checkCredentials } from "../auth/credentials.ts";
import { twoFactorApplies } from "../auth/auth.service.ts";
import { requestTwoFactorCode, spendTwoFactorCode } from "../auth/two-factor.ts";
import { transaction } from "../db/transaction.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import type { RateLimitStore } from "../lib/rate-limit.ts";
import { deleteAccount } from "../users/account-deletion.ts";

export type DeleteAccountInput = { password: string; code?: string };

/**
 * DELETE /api/auth/account (right to erasure, GDPR art. 17). The password,
 * then, when two-factor applies to the user, an e-mailed code: the first call
 * without one mails it and answers "2FA_REQUIRED" (as login does); a
 * remembered device never skips it here. Then the very deletion the admin
 * panel and the CLI use (deleteAccount), so whatever that service does
 * first (cancelling the Stripe subscription, refusing when Stripe refuses)
 * applies alike. Sessions go with the account: the caller is logged out.
 */
export async function deleteOwnAccount(deps: Deps, store: RateLimitStore, user: UserRow, input: DeleteAccountInput): Promise<"deleted" | "2FA_REQUIRED"> {
  // An admin account is removed by another admin, so the product always keeps one.
  if (user.isAdmin) throw new AppError("ACCOUNT_ADMIN_DELETE");
  // 403, not login's 401: the session is valid, only the confirmation is wrong.
  await checkCredentials(deps, user.email, input.password).catch((e) => {
    throw e instanceof AppError && e.code === "INVALID_CREDENTIALS" ? new AppError("ACCOUNT_WRONG_PASSWORD") : e;
  });
  if (twoFactorApplies(deps.config, user)) {
    if (!input.code) {
      await requestTwoFactorCode(deps, store, { email: user.email, password: input.password });
      return "2FA_REQUIRED";
    }
    const now = deps.clock.now();
    if (!(await transaction(deps.db, async (tx) => await spendTwoFactorCode({ ...deps, db: tx }, user.id, input.code!, now))))
      throw new AppError("TWO_FACTOR_CODE_INVALID");
  }
  await deleteAccount(deps, user.id, `user:${user.id}`);
  deps.log.info("user deleted their own account", { user_id: user.id });
  return "deleted";
}
