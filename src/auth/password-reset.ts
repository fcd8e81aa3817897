import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { HOUR, MINUTE } from "../lib/clock.ts";
import { AppError, errorMessage } from "../lib/errors.ts";
import { sendInBackground } from "../lib/mail/index.ts";
import { passwordChangedMail, passwordResetMail } from "../lib/mail/templates.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";
import { findUserByEmail, findUserById, updateUser } from "../users/users.queries.ts";
import { hashPassword } from "./password-hash.ts";
import { assertNotCommonPassword } from "./passwords.ts";
import { findLiveResetToken, insertResetToken, useResetTokens } from "./auth.queries.ts";
import { revokeCredentials } from "./revoke-access.ts";

const RESET_TTL_MS = HOUR;

/**
 * A single-use reset link valid 1 hour (only its hash is stored); it ends the
 * account's older links, so only the newest mail works. Used by
 * forgot-password and by the CLI's `users reset-password <email>`.
 */
export async function createPasswordResetLink(
  deps: Pick<Deps, "db" | "clock" | "config">,
  userId: number,
): Promise<{ url: string; token: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
  await transaction(deps.db, async (tx) => {
    await useResetTokens(tx, userId, now);
    await insertResetToken(tx, { userId, tokenHash: sha256(token), createdAt: now, expiresAt });
  });
  return { url: `${deps.config.publicUrl}/reset-password?token=${token}`, token, expiresAt };
}

/**
 * Known or unknown e-mail, the caller sees the same answer at about the same
 * time: the link is mailed in the background, and a mail failure is logged
 * and kept in mail_outbox (status failed) instead of revealing the account.
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const link = await createPasswordResetLink(deps, user.id);
  void sendInBackground(deps.mailer, deps.log, passwordResetMail({ to: user.email, firstName: user.firstName, url: link.url, minutes: RESET_TTL_MS / MINUTE }));
}

export type ResetTokenCheck = { valid: boolean; email: string | null; expires_in_minutes: number; error: string | null };

export async function checkResetToken(deps: Pick<Deps, "db" | "clock">, token: string): Promise<ResetTokenCheck> {
  const now = deps.clock.now();
  const row = await findLiveResetToken(deps.db, sha256(token), now);
  if (!row) return { valid: false, email: null, expires_in_minutes: 0, error: errorMessage("RESET_TOKEN_INVALID") };
  const minutes = Math.max(1, Math.ceil((row.expiresAt.getTime() - now.getTime()) / MINUTE));
  return { valid: true, email: row.email, expires_in_minutes: minutes, error: null };
}

/**
 * Sets the new password, uses up every reset link of the account, and ends
 * every session, remembered device, two-factor code and API key, in one
 * transaction; then mails the owner what ended. It does not sign the user
 * in (DECISIONS.md).
 */
export async function resetPassword(deps: Deps, token: string, newPassword: string): Promise<void> {
  const tokenHash = sha256(token);
  // Cheap refusal first: a bad token never costs an argon2 hash.
  if (!(await findLiveResetToken(deps.db, tokenHash, deps.clock.now()))) throw new AppError("RESET_TOKEN_INVALID");
  await assertNotCommonPassword(newPassword);
  const passwordHash = await hashPassword(newPassword, deps.config.passwordHash);
  const user = await transaction(deps.db, async (tx) => {
    const now = deps.clock.now();
    const row = await findLiveResetToken(tx, tokenHash, now);
    const owner = row && (await findUserById(tx, row.userId));
    if (!owner) throw new AppError("RESET_TOKEN_INVALID");
    await updateUser(tx, owner.id, { passwordHash, updatedAt: now });
    await revokeCredentials(tx, owner.id, now);
    return owner;
  });
  deps.log.info("password reset", { user_id: user.id });
  void sendInBackground(deps.mailer, deps.log, passwordChangedMail({ to: user.email, firstName: user.firstName }));
}
