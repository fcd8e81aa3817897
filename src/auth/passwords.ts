import { AppError } from "../lib/errors.ts";

/**
 * The most common passwords: the 49,000 of @zxcvbn-ts/language-common
 * (leaked-password frequency lists, French ones such as "azerty" and
 * "motdepasse" included), bundled into the executable with the package.
 * Loaded at the first check, not at every start (the list is decompressed,
 * ~15 ms), and compared lower-cased so "Password1" counts as "password1".
 */
// Module state: a constant list loaded once per process; it never changes, whatever the app.
let common: Promise<Set<string>> | undefined;

/** Starts loading the list without waiting for it (at server start, and when the reset page opens). */
export function warmCommonPasswords(): void {
  void commonPasswords();
}

function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => new Set(dictionary["passwords-common"]));
  return common;
}

/** 400 with a French message when the password is one of the most common (register and reset; the 6-character minimum stays the schema's). */
export async function assertNotCommonPassword(password: string): Promise<void> {
  if ((await commonPasswords()).has(password.toLowerCase())) throw new AppError("PASSWORD_TOO_COMMON");
}
