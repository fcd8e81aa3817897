import type { Config } from "../config.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { sendInBackground } from "../lib/mail/index.ts";
import { welcomeMail } from "../lib/mail/templates.ts";
import { randomToken } from "../lib/tokens.ts";
import { findUserByEmail } from "../users/users.queries.ts";
import { createUser } from "../users/users.service.ts";
import { type PublicUser, toPublicUser } from "../users/users.view.ts";
import { isRememberedDevice } from "./auth.devices.ts";
import { createSession } from "./sessions.ts";

export type RequestMeta = { ip?: string | null; userAgent?: string | null };
export type SignedIn = { user: PublicUser; token: string };

let dummyHash: Promise<string> | undefined;
/**
 * A real argon2id hash of a random secret, made once: an unknown e-mail is
 * verified against it so that it costs the same time as a wrong password.
 */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= Bun.password.hash(randomToken(16), { algorithm: "argon2id" });
  return dummyHash;
}

/** The account of these credentials, or 401 with one message for unknown e-mail and wrong password alike. */
export async function checkCredentials(deps: Pick<Deps, "db">, email: string, password: string): Promise<UserRow> {
  const user = findUserByEmail(deps.db, email);
  const hash = user?.passwordHash ?? (await dummyPasswordHash());
  const ok = await Bun.password.verify(password, hash).catch(() => false);
  if (!user || !ok) throw new AppError("INVALID_CREDENTIALS");
  return user;
}

/** TWO_FACTOR=off: nobody; admins: admins and users who turned it on; all: everyone. */
export function twoFactorApplies(config: Config, user: UserRow): boolean {
  if (config.twoFactor === "off") return false;
  if (config.twoFactor === "all") return true;
  return user.isAdmin || user.twoFactorEnabled;
}

export function signIn(deps: Pick<Deps, "db" | "clock">, user: UserRow, meta: RequestMeta): SignedIn {
  const now = deps.clock.now();
  return { user: toPublicUser(user, now), token: createSession(deps.db, user.id, now, meta) };
}

export async function register(
  deps: Deps,
  input: { email: string; password: string; first_name: string; last_name: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const user = await createUser(deps.db, deps.clock.now(), {
    email: input.email,
    password: input.password,
    firstName: input.first_name,
    lastName: input.last_name,
  });
  // The account exists whatever the mail server does: the welcome mail never blocks registration.
  void sendInBackground(deps.mailer, deps.log, welcomeMail({ to: user.email, firstName: user.firstName, publicUrl: deps.config.publicUrl }));
  return signIn(deps, user, meta);
}

/** Signed in, or two-factor needed (202) when it applies and this device is not remembered. */
export async function login(
  deps: Deps,
  input: { email: string; password: string },
  deviceToken: string | undefined,
  meta: RequestMeta,
): Promise<SignedIn | "2FA_REQUIRED"> {
  const user = await checkCredentials(deps, input.email, input.password);
  if (twoFactorApplies(deps.config, user) && !isRememberedDevice(deps.db, user.id, deviceToken, deps.clock.now())) {
    return "2FA_REQUIRED";
  }
  return signIn(deps, user, meta);
}
