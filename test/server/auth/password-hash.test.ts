import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../../src/config.ts";
import { findUserByEmail } from "../../../src/users/users.queries.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { lastResetToken } from "./auth.helpers.ts";

/** argon2id's settings as the stored hash spells them. */
const settingsOf = (hash: string) => /^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(hash)?.[1];

const registration = { password: "Un mot de passe solide 42", first_name: "Camille", last_name: "Martin" };

async function storedHash(db: Parameters<typeof findUserByEmail>[0], email: string): Promise<string> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error(`no account ${email}`);
  return user.passwordHash;
}

describe("password hashing (ARGON2_MEMORY_MIB)", () => {
  test("by default a new password is hashed with argon2id, 64 MiB and two passes", async () => {
    // The tests' own apps hash at 19 MiB (test/helpers/password-cost.ts): unset it to see the product's default.
    const { call, db } = await createTestApp({ env: { ARGON2_MEMORY_MIB: undefined } });
    const res = await call("POST", "/api/auth/register", { json: { ...registration, email: "defaut@example.fr" } });
    expect(res.status).toBe(200);
    expect(settingsOf(await storedHash(db, "defaut@example.fr"))).toBe("m=65536,t=2,p=1");
  });

  test("a registration is hashed with the memory the operator set", async () => {
    const { call, db } = await createTestApp({ env: { ARGON2_MEMORY_MIB: "24" } });
    await call("POST", "/api/auth/register", { json: { ...registration, email: "reglage@example.fr" } });
    expect(settingsOf(await storedHash(db, "reglage@example.fr"))).toBe("m=24576,t=2,p=1");
  });

  test("less than OWASP's 19 MiB is refused at start with one French line naming the variable", () => {
    expect(() => loadConfig({ ARGON2_MEMORY_MIB: "8" })).toThrow(new ConfigError('Configuration invalide : ARGON2_MEMORY_MIB="8" doit valoir au moins 19'));
  });

  test("a sign-in moves a hash made with older settings to today's, and the password still works", async () => {
    const { call, db, clock } = await createTestApp({ env: { ARGON2_MEMORY_MIB: "20", TWO_FACTOR: "off" } });
    const { user } = await makeUser(db, clock.now()); // hashed at 19 MiB
    expect((await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } })).status).toBe(200);
    expect(settingsOf(await storedHash(db, user.email))).toBe("m=20480,t=2,p=1");
    expect((await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } })).status).toBe(200);
  });

  test("a wrong password leaves the stored hash as it was", async () => {
    const { call, db, clock } = await createTestApp({ env: { ARGON2_MEMORY_MIB: "20" } });
    const { user } = await makeUser(db, clock.now());
    const before = await storedHash(db, user.email);
    expect((await call("POST", "/api/auth/login", { json: { email: user.email, password: "pas le bon" } })).status).toBe(401);
    expect(await storedHash(db, user.email)).toBe(before);
  });

  test("a reset password is hashed with the operator's memory", async () => {
    const { call, db, clock } = await createTestApp({ env: { ARGON2_MEMORY_MIB: "21" } });
    const { user } = await makeUser(db, clock.now());
    await call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    const token = await lastResetToken(db, user.email);
    const reset = await call("POST", "/api/auth/reset-password", { json: { token, new_password: registration.password } });
    expect(reset.status).toBe(200);
    expect(settingsOf(await storedHash(db, user.email))).toBe("m=21504,t=2,p=1");
  });
});
