/**
 * Passwords are hashed with argon2id (Bun.password, docs/DECISIONS.md). Its
 * memory is the operator's choice (ARGON2_MEMORY_MIB): 64 MiB by
 * default (Bun's own), never under OWASP's 19 MiB at two passes. Each hash
 * and each check holds that memory for its duration, so a small server can
 * lower it; a stored hash carries its own settings, so every hash made
 * before a change still verifies, and a sign-in moves it to the new ones
 * (`hashOutdated`).
 */

/** OWASP's password storage cheat sheet: argon2id, at least 19 MiB of memory and two passes. */
export const ARGON2_MEMORY_MIB_MIN = 19;
/** Bun.password's default memory for argon2id. */
export const ARGON2_MEMORY_MIB_DEFAULT = 64;
const TIME_COST = 2;

export type PasswordHashCost = { readonly memoryMib: number };

export function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id", memoryCost: cost.memoryMib * 1024, timeCost: TIME_COST });
}

/** Whether the password matches; false for a hash that cannot be read. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash).catch(() => false);
}

/** Whether a stored hash was made with other settings than today's (or another algorithm): rehash it at the next sign-in. */
export function hashOutdated(hash: string, cost: PasswordHashCost): boolean {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$/.exec(hash);
  return !m || Number(m[1]) !== cost.memoryMib * 1024 || Number(m[2]) !== TIME_COST;
}

// Module state: one constant hash per process and cost, for the timing of unknown e-mails (credentials.ts).
const dummyHashes = new Map<number, Promise<string>>();

/**
 * A real hash of a random secret, made once per cost: an unknown e-mail is
 * checked against it, so that it costs the same time as a wrong password.
 */
export function dummyPasswordHash(cost: PasswordHashCost): Promise<string> {
  let hash = dummyHashes.get(cost.memoryMib);
  if (!hash) {
    hash = hashPassword(crypto.randomUUID(), cost);
    dummyHashes.set(cost.memoryMib, hash);
  }
  return hash;
}
