import type { Db } from "../../src/db/client.ts";
import type { UserRow } from "../../src/db/schema/index.ts";
import { createSession } from "../../src/auth/sessions.ts";
import { DAY } from "../../src/lib/clock.ts";
import { insertUser, type NewUser } from "../../src/users/users.queries.ts";
import { PLAN_ALLOWANCE } from "../../src/contracts/pricing.ts";
import { TRIAL_DAYS } from "../../src/users/quota.ts";
import { hashPassword } from "../../src/auth/password-hash.ts";
import { TEST_PASSWORD_HASH_COST } from "./password-cost.ts";

export const TEST_PASSWORD = "Motdepasse1";
let hash: Promise<string> | undefined;
/** argon2id is slow on purpose: hash the shared test password once per process, at the tests' cost (password-cost.ts). */
function testHash(): Promise<string> {
  hash ??= hashPassword(TEST_PASSWORD, TEST_PASSWORD_HASH_COST);
  return hash;
}

let seq = 0;

/** A user straight in the database (trial by default), with a live session token. */
export async function makeUser(db: Db, now: Date, values: Partial<NewUser> = {}): Promise<{ user: UserRow; token: string }> {
  seq += 1;
  const plan = values.subscriptionType ?? "trial";
  const user = await insertUser(db, {
    email: `user${seq}-${Math.random().toString(36).slice(2, 8)}@example.fr`,
    passwordHash: await testHash(),
    firstName: "Camille",
    lastName: `Martin${seq}`,
    subscriptionType: plan,
    planQueries: PLAN_ALLOWANCE[plan],
    extraQueries: 0,
    trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * DAY),
    createdAt: now,
    updatedAt: now,
    ...values,
  });
  return { user, token: await createSession(db, user.id, now) };
}
