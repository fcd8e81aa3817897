import { timingSafeEqual } from "node:crypto";
import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { twoFactorCodeMail } from "../lib/mail/templates.ts";
import { randomDigits, sha256 } from "../lib/tokens.ts";
import { findUserByEmail } from "../users/users.queries.ts";
import { rememberDevice } from "./remembered-devices.ts";
import { consumeLimit, type RateLimitStore } from "../lib/rate-limit.ts";
import { checkCredentialsThrottled, clearLoginFailures } from "./credentials.ts";
import { AUTH_LIMITS } from "./limits.ts";
import { deleteCode, endCodes, insertCode, liveCodes, setCodeAttempts } from "./auth.queries.ts";
import { type RequestMeta, type SignedIn, signIn } from "./auth.service.ts";

/** DECISIONS.md (Accounts and security) and docs/PRODUCT.md#two-factor. */
export const CODE_TTL_MS = 10 * MINUTE;
export const RESEND_AFTER_MS = 60_000;
/** A code survives 5 wrong tries; the 5th ends it, so no 6th try can succeed. */
const MAX_TRIES_PER_CODE = 5;

/** Salted with the user id so equal codes of two users never share a hash. */
function hashCode(userId: number, code: string): string {
  return sha256(`${userId}:${code}`);
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The pending-login id a code is bound to, hashed; null for a client that sends none. */
function loginHashOf(pendingLogin: string | undefined): string | null {
  return pendingLogin ? sha256(`login:${pendingLogin}`) : null;
}

/**
 * Re-checks the password (behind the login throttle), then mails a new
 * 6-digit code, bound to the pending-login id when the client sent one. The
 * per-account limit counts only requests with the right password, so a
 * stranger cannot use it up. The 60-second rule counts from the newest code
 * still usable (a sign-in right after a successful one gets its code at
 * once). The code row is reserved first (so two requests cannot both pass
 * the 60-second rule) and only replaces the older
 * codes once the mail went out: a failing mail server leaves the previous
 * code valid and the resend free to retry at once.
 */
export async function requestTwoFactorCode(
  deps: Deps,
  store: RateLimitStore,
  input: { email: string; password: string; pending_login?: string },
): Promise<void> {
  const { user } = await checkCredentialsThrottled(deps, store, input.email, input.password);
  await consumeLimit(store, "auth.twoFactorRequest", user.email, AUTH_LIMITS.twoFactorRequest.account);
  const now = deps.clock.now();
  const code = randomDigits(6);
  const reserved = await transaction(deps.db, async (tx) => {
    // Only a code still usable holds back a new one: a used, spent or expired code must never leave its owner waiting.
    const usable = await liveCodes(tx, user.id, now);
    const newest = Math.max(...usable.map((c) => c.createdAt.getTime()));
    const waited = usable.length > 0 ? now.getTime() - newest : Infinity;
    if (waited < RESEND_AFTER_MS) {
      const seconds = Math.ceil((RESEND_AFTER_MS - waited) / 1000);
      throw new AppError("TWO_FACTOR_TOO_SOON", undefined, { "Retry-After": String(seconds) });
    }
    return await insertCode(tx, {
      userId: user.id,
      codeHash: hashCode(user.id, code),
      loginHash: loginHashOf(input.pending_login),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
  });
  try {
    await deps.mailer.send(twoFactorCodeMail({ to: user.email, firstName: user.firstName, code, minutes: CODE_TTL_MS / MINUTE }));
  } catch (e) {
    await deleteCode(deps.db, reserved.id);
    throw e instanceof AppError ? e : new AppError("MAIL_FAILED");
  }
  await endCodes(deps.db, user.id, deps.clock.now(), reserved.id);
}

/**
 * Spends a code of the user's (call inside a transaction, with its handle),
 * among the live codes of the same pending login (or the unbound ones when
 * no id is sent): true when it matches, which ends them all; false after
 * counting one try against each of those codes (the 5th ends a code).
 * Nothing is counted against the account itself, and without a live code
 * nothing at all, so a stranger who knows only the e-mail cannot lock its
 * owner out. Shared by sign-in and account deletion.
 */
export async function spendTwoFactorCode(deps: Pick<Deps, "db">, userId: number, code: string, now: Date, pendingLogin?: string): Promise<boolean> {
  const hash = hashCode(userId, code);
  const loginHash = loginHashOf(pendingLogin);
  const live = (await liveCodes(deps.db, userId, now)).filter((c) => c.loginHash === loginHash);
  const match = live.find((c) => sameHash(c.codeHash, hash));
  if (!match) {
    for (const c of live) {
      const tries = c.failedAttempts + 1;
      await setCodeAttempts(deps.db, c.id, tries, tries >= MAX_TRIES_PER_CODE ? now : null);
    }
    return false;
  }
  await endCodes(deps.db, userId, now);
  return true;
}

/**
 * Checks a code (spendTwoFactorCode). Right: the code is used up and a
 * session opens (plus a remembered device when asked), in one transaction.
 */
export async function verifyTwoFactorCode(
  deps: Deps,
  store: RateLimitStore,
  input: { email: string; code: string; remember_device: boolean; pending_login?: string },
  meta: RequestMeta,
): Promise<SignedIn & { deviceToken?: string }> {
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) throw new AppError("TWO_FACTOR_CODE_INVALID");
  const now = deps.clock.now();
  const outcome = await transaction(deps.db, async (tx) => {
    if (!(await spendTwoFactorCode({ ...deps, db: tx }, user.id, input.code, now, input.pending_login))) return undefined;
    const deviceToken = input.remember_device ? await rememberDevice(tx, user.id, now) : undefined;
    return { ...(await signIn({ ...deps, db: tx }, user, meta)), deviceToken };
  });
  if (!outcome) throw new AppError("TWO_FACTOR_CODE_INVALID");
  await clearLoginFailures(store, user.email);
  return outcome;
}
