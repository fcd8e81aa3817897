import type { Db } from "../db/client.ts";
import { initialEntitlements } from "../billing/entitlements.ts";
import type { UserRow } from "../db/schema/index.ts";
import { hashPassword, type PasswordHashCost } from "../auth/password-hash.ts";
import { AppError } from "../lib/errors.ts";
import { findUserByEmail, insertUser } from "./users.queries.ts";

export type CreateUserInput = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  isAdmin?: boolean;
};

/**
 * Creates an account on the 7-day / 5-request trial (register, CLI, first admin).
 * The password is hashed with argon2id at the operator's cost (src/auth/password-hash.ts).
 */
export async function createUser(db: Db, cost: PasswordHashCost, now: Date, input: CreateUserInput): Promise<UserRow> {
  if (await findUserByEmail(db, input.email)) throw new AppError("EMAIL_TAKEN");
  const passwordHash = await hashPassword(input.password, cost);
  try {
    return await insertUser(db, {
      email: input.email,
      passwordHash,
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      ...initialEntitlements(now),
      isAdmin: input.isAdmin ?? false,
      createdAt: now,
      updatedAt: now,
    });
  } catch (e) {
    // Two registrations of one address at the same moment: the unique index decides.
    if (String(e).includes("UNIQUE")) throw new AppError("EMAIL_TAKEN");
    throw e;
  }
}
