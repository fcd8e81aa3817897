import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { rateLimited, type RateLimitStore } from "../lib/rate-limit.ts";
import { findUserByEmail, updateUser } from "../users/users.queries.ts";
import { dummyPasswordHash, hashOutdated, hashPassword, verifyPassword } from "./password-hash.ts";

/** The account of these credentials, or 401 with one message for unknown e-mail and wrong password alike. */
export async function checkCredentials(deps: Pick<Deps, "db" | "config">, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(deps.db, email);
  const hash = user?.passwordHash ?? (await dummyPasswordHash(deps.config.passwordHash));
  const ok = await verifyPassword(password, hash);
  if (!user || !ok) throw new AppError("INVALID_CREDENTIALS");
  return user;
}

/**
 * A hash made with other settings than ARGON2_MEMORY_MIB's (set
 * since) is made again from the password just checked: the only moment the
 * server holds it.
 */
async function rehashIfOutdated(deps: Pick<Deps, "db" | "config" | "clock">, user: UserRow, password: string): Promise<void> {
  if (!hashOutdated(user.passwordHash, deps.config.passwordHash)) return;
  await updateUser(deps.db, user.id, { passwordHash: await hashPassword(password, deps.config.passwordHash), updatedAt: deps.clock.now() });
}

/**
 * Password guessing per account (the e-mail typed, known or not, so the
 * answers reveal nothing). Never a hard lock a stranger controls
 * (docs/SECURITY.md, "Throttling"): past `delayAfter` failed attempts in the
 * window each attempt waits longer (doubling, capped); past `lockAfter` the
 * account is "locked": a wrong password answers 429, and the right one still
 * signs in, but only through an e-mail code (login answers 202), even where
 * two-factor would not apply. A sign-in clears the count.
 */
export const LOGIN_THROTTLE = { windowMs: 15 * MINUTE, delayAfter: 5, baseDelayMs: 200, maxDelayMs: 2_000, lockAfter: 10 };

/** How long an attempt waits when `failures` attempts failed before it in the window. */
export function loginDelayMs(failures: number): number {
  const { delayAfter, baseDelayMs, maxDelayMs } = LOGIN_THROTTLE;
  if (failures < delayAfter) return 0;
  return Math.min(maxDelayMs, baseDelayMs * 2 ** (failures - delayAfter));
}

const failureKey = (email: string) => `fail:login:${email.trim().toLowerCase()}`;

export type CheckedLogin = { user: UserRow; locked: boolean };

/**
 * checkCredentials behind the throttle. The attempt is counted before the
 * password is checked (and taken back when it was right), so attempts sent
 * in parallel each see the ones before them and wait accordingly.
 */
export async function checkCredentialsThrottled(
  deps: Pick<Deps, "db" | "config" | "clock">,
  store: RateLimitStore,
  email: string,
  password: string,
): Promise<CheckedLogin> {
  const key = failureKey(email);
  const attempt = await store.hit(key, LOGIN_THROTTLE.windowMs);
  const failuresBefore = attempt.count - 1;
  const delay = loginDelayMs(failuresBefore);
  if (delay > 0) await Bun.sleep(delay);
  try {
    const user = await checkCredentials(deps, email, password);
    await store.undo(key);
    await rehashIfOutdated(deps, user, password);
    return { user, locked: failuresBefore >= LOGIN_THROTTLE.lockAfter };
  } catch (e) {
    if (e instanceof AppError && e.code === "INVALID_CREDENTIALS" && attempt.count > LOGIN_THROTTLE.lockAfter) {
      throw rateLimited(store, attempt.resetAt);
    }
    throw e;
  }
}

/** A completed sign-in (password, or password and code) forgets the failed attempts. */
export async function clearLoginFailures(store: RateLimitStore, email: string): Promise<void> {
  await store.reset(failureKey(email));
}
