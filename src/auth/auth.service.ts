import type { Config } from "../config.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { sendInBackground } from "../lib/mail/index.ts";
import { welcomeMail } from "../lib/mail/templates.ts";
import { randomToken } from "../lib/tokens.ts";
import { createUser } from "../users/users.service.ts";
import { type PublicUser, toPublicUser } from "../users/users.view.ts";
import type { RateLimitStore } from "../lib/rate-limit.ts";
import { checkCredentialsThrottled, clearLoginFailures } from "./credentials.ts";
import { isRememberedDevice } from "./remembered-devices.ts";
import { assertNotCommonPassword } from "./passwords.ts";
import { createSession } from "./sessions.ts";

export type RequestMeta = { ip?: string | null; userAgent?: string | null };
export type SignedIn = { user: PublicUser; token: string };

/** TWO_FACTOR=off: nobody; admins: admins and users who turned it on; all: everyone. */
export function twoFactorApplies(config: Config, user: UserRow): boolean {
  if (config.twoFactor === "off") return false;
  if (config.twoFactor === "all") return true;
  return user.isAdmin || user.twoFactorEnabled;
}

export async function signIn(deps: Pick<Deps, "db" | "clock">, user: UserRow, meta: RequestMeta): Promise<SignedIn> {
  const now = deps.clock.now();
  return { user: toPublicUser(user, now), token: await createSession(deps.db, user.id, now, meta) };
}

export async function register(
  deps: Deps,
  input: { email: string; password: string; first_name: string; last_name: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  await assertNotCommonPassword(input.password);
  const user = await createUser(deps.db, deps.config.passwordHash, deps.clock.now(), {
    email: input.email,
    password: input.password,
    firstName: input.first_name,
    lastName: input.last_name,
  });
  // The account exists whatever the mail server does: the welcome mail never blocks registration.
  void sendInBackground(deps.mailer, deps.log, welcomeMail({ to: user.email, firstName: user.firstName, publicUrl: deps.config.publicUrl }));
  return await signIn(deps, user, meta);
}

/** Signed in, or two-factor needed (202) when it applies and this device is not remembered. */
/**
 * Signed in, or an e-mail code needed (202) when two-factor applies and this
 * device is not remembered, or when failed attempts locked the account.
 * The 202 carries a pending-login id: a client that sends it back with
 * /2fa/request and /2fa/verify gets a code no stranger can try or burn.
 */
export async function login(
  deps: Deps,
  store: RateLimitStore,
  input: { email: string; password: string },
  deviceToken: string | undefined,
  meta: RequestMeta,
): Promise<SignedIn | { pendingLogin: string }> {
  const { user, locked } = await checkCredentialsThrottled(deps, store, input.email, input.password);
  if (locked || (twoFactorApplies(deps.config, user) && !(await isRememberedDevice(deps.db, user.id, deviceToken, deps.clock.now())))) {
    return { pendingLogin: randomToken(24) };
  }
  await clearLoginFailures(store, input.email);
  return await signIn(deps, user, meta);
}
