import { timingSafeEqual } from "node:crypto";
import { immediate } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { twoFactorCodeMail } from "../lib/mail/templates.ts";
import { randomDigits, sha256 } from "../lib/tokens.ts";
import { findUserByEmail } from "../users/users.queries.ts";
import { rememberDevice } from "./auth.devices.ts";
import {
  countFailuresSince,
  deleteCode,
  endCodes,
  insertCode,
  latestCode,
  liveCodes,
  oldestFailureSince,
  recordFailure,
  setCodeAttempts,
} from "./auth.queries.ts";
import { checkCredentials, type RequestMeta, type SignedIn, signIn } from "./auth.service.ts";

/** DECISIONS.md (Accounts and security) and spec section 9. */
export const CODE_TTL_MS = 10 * MINUTE;
export const RESEND_AFTER_MS = 60_000;
/** A code survives 5 wrong tries; the 5th ends it, so no 6th try can succeed. */
export const MAX_TRIES_PER_CODE = 5;
export const FAILURE_WINDOW_MS = 15 * MINUTE;
export const MAX_FAILURES_PER_WINDOW = 10;

/** Salted with the user id so equal codes of two users never share a hash. */
function hashCode(userId: number, code: string): string {
  return sha256(`${userId}:${code}`);
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** 429 while the account has 10 wrong codes in the last 15 minutes; Retry-After says when it lifts. */
function assertNotLocked(deps: Pick<Deps, "db">, userId: number, now: Date): void {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  if (countFailuresSince(deps.db, userId, "two_factor", since) < MAX_FAILURES_PER_WINDOW) return;
  const oldest = oldestFailureSince(deps.db, userId, "two_factor", since) ?? now;
  const seconds = Math.max(1, Math.ceil((oldest.getTime() + FAILURE_WINDOW_MS - now.getTime()) / 1000));
  throw new AppError("TWO_FACTOR_LOCKED", undefined, { "Retry-After": String(seconds) });
}

/**
 * Re-checks the password, then mails a new 6-digit code. The code row is
 * reserved first (so two requests cannot both pass the 60-second rule) and
 * only replaces the older codes once the mail went out: a failing mail server
 * leaves the previous code valid and the resend free to retry at once.
 */
export async function requestTwoFactorCode(deps: Deps, email: string, password: string): Promise<void> {
  const user = await checkCredentials(deps, email, password);
  const now = deps.clock.now();
  const code = randomDigits(6);
  const reserved = immediate(deps.db, () => {
    assertNotLocked(deps, user.id, now);
    const last = latestCode(deps.db, user.id);
    const waited = last ? now.getTime() - last.createdAt.getTime() : Infinity;
    if (waited < RESEND_AFTER_MS) {
      const seconds = Math.ceil((RESEND_AFTER_MS - waited) / 1000);
      throw new AppError("TWO_FACTOR_TOO_SOON", undefined, { "Retry-After": String(seconds) });
    }
    return insertCode(deps.db, {
      userId: user.id,
      codeHash: hashCode(user.id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
  });
  try {
    await deps.mailer.send(twoFactorCodeMail({ to: user.email, firstName: user.firstName, code, minutes: CODE_TTL_MS / MINUTE }));
  } catch (e) {
    deleteCode(deps.db, reserved.id);
    throw e instanceof AppError ? e : new AppError("MAIL_FAILED");
  }
  endCodes(deps.db, user.id, deps.clock.now(), reserved.id);
}

/**
 * Spends a code of the user's (call inside an immediate transaction): true
 * when it matches a live one, which ends them all; false after recording the
 * failure against every live code. Shared by sign-in and account deletion.
 */
export function spendTwoFactorCode(deps: Pick<Deps, "db">, userId: number, code: string, now: Date): boolean {
  assertNotLocked(deps, userId, now);
  const hash = hashCode(userId, code);
  const live = liveCodes(deps.db, userId, now);
  const match = live.find((c) => sameHash(c.codeHash, hash));
  if (!match) {
    recordFailure(deps.db, userId, "two_factor", now);
    for (const c of live) {
      const tries = c.failedAttempts + 1;
      setCodeAttempts(deps.db, c.id, tries, tries >= MAX_TRIES_PER_CODE ? now : null);
    }
    return false;
  }
  endCodes(deps.db, userId, now);
  return true;
}

/**
 * Checks a code. Right: the code is used up and a session opens (plus a
 * remembered device when asked), in one transaction. Wrong: the failure is
 * recorded and counted against every live code before the 400 is thrown,
 * outside the transaction so the count is kept.
 */
export function verifyTwoFactorCode(
  deps: Deps,
  input: { email: string; code: string; remember_device: boolean },
  meta: RequestMeta,
): SignedIn & { deviceToken?: string } {
  const user = findUserByEmail(deps.db, input.email);
  if (!user) throw new AppError("TWO_FACTOR_CODE_INVALID");
  const now = deps.clock.now();
  const outcome = immediate(deps.db, () => {
    if (!spendTwoFactorCode(deps, user.id, input.code, now)) return undefined;
    const deviceToken = input.remember_device ? rememberDevice(deps.db, user.id, now) : undefined;
    return { ...signIn(deps, user, meta), deviceToken };
  });
  if (!outcome) throw new AppError("TWO_FACTOR_CODE_INVALID");
  return outcome;
}
