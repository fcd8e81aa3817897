import { describe, expect, test } from "bun:test";
import { DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";

describe("POST /api/auth/login", () => {
  test("answers 200 with the user and a working token for the right password", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    const me = await call("GET", "/api/auth/me", { token: res.body.token });
    expect(me.body.id).toBe(user.id);
  });

  test("finds the account whatever the case and spaces of the e-mail", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    const res = await call("POST", "/api/auth/login", { json: { email: ` ${user.email.toUpperCase()} `, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
  });

  test("answers 401 with a French detail for a wrong password", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: "wrong-password" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: "Email ou mot de passe incorrect." });
  });

  test("answers an unknown e-mail exactly like a wrong password", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    const wrong = await call("POST", "/api/auth/login", { json: { email: user.email, password: "wrong-password" } });
    const unknown = await call("POST", "/api/auth/login", { json: { email: "nobody@example.fr", password: "wrong-password" } });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  test("asks an admin for two-factor (202, no token) under the default TWO_FACTOR=admins", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now(), { isAdmin: true });
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ detail: "2FA_REQUIRED", pending_login: expect.any(String) });
  });

  test("asks a user who turned two-factor on for it under TWO_FACTOR=admins", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now(), { twoFactorEnabled: true });
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(202);
  });

  test("asks every user for two-factor under TWO_FACTOR=all", async () => {
    const { call, db, clock } = await createTestApp({ env: { TWO_FACTOR: "all" } });
    const { user } = await makeUser(db, clock.now());
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(202);
  });

  test("asks nobody for two-factor under TWO_FACTOR=off", async () => {
    const { call, db, clock } = await createTestApp({ env: { TWO_FACTOR: "off" } });
    const { user } = await makeUser(db, clock.now(), { isAdmin: true });
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
  });

  test("does not ask for two-factor before the password is right", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now(), { isAdmin: true });
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: "wrong-password" } });
    expect(res.status).toBe(401);
  });

  test("refuses a blank e-mail with 'L'email est requis'", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/login", { json: { email: " ", password: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("L'email est requis");
  });

  test("refuses a missing password with 'Le mot de passe est requis'", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/login", { json: { email: "a@b.fr" } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le mot de passe est requis");
  });
});

describe("GET /api/auth/me and POST /api/auth/logout", () => {
  test("me answers the user object of docs/PRODUCT.md#user-object", async () => {
    const { call, db, clock } = await createTestApp();
    const { user, token } = await makeUser(db, clock.now());
    const res = await call("GET", "/api/auth/me", { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      "created_at",
      "email",
      "first_name",
      "id",
      "is_admin",
      "last_name",
      "remaining_queries",
      "subscription_type",
      "trial_days_remaining",
    ]);
    expect(res.body.id).toBe(user.id);
  });

  test("me reads a trial past its end as expired", async () => {
    const { call, db, clock } = await createTestApp();
    const { token } = await makeUser(db, clock.now());
    clock.advance(8 * DAY);
    const res = await call("GET", "/api/auth/me", { token });
    expect(res.body.subscription_type).toBe("expired");
    expect(res.body.trial_days_remaining).toBe(0);
  });

  test("me answers 401 without a token", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/auth/me");
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe("Session expirée. Veuillez vous reconnecter.");
  });

  test("me answers 401 for an unknown token", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/auth/me", { token: "x".repeat(43) });
    expect(res.status).toBe(401);
  });

  test("me answers 401 once the session expired", async () => {
    const { call, db, clock } = await createTestApp();
    const { token } = await makeUser(db, clock.now());
    clock.advance(31 * DAY);
    const res = await call("GET", "/api/auth/me", { token });
    expect(res.status).toBe(401);
  });

  test("logout revokes the session: its token then answers 401", async () => {
    const { call, db, clock } = await createTestApp();
    const { token } = await makeUser(db, clock.now());
    const out = await call("POST", "/api/auth/logout", { token });
    expect(out.status).toBe(200);
    expect(out.body.success).toBe(true);
    const me = await call("GET", "/api/auth/me", { token });
    expect(me.status).toBe(401);
  });

  test("logout ends only that session, not the user's other ones", async () => {
    const { call, db, clock } = await createTestApp();
    const { user, token } = await makeUser(db, clock.now());
    const other = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    await call("POST", "/api/auth/logout", { token });
    const me = await call("GET", "/api/auth/me", { token: other.body.token });
    expect(me.status).toBe(200);
  });

  test("logout answers 401 without a token", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/logout");
    expect(res.status).toBe(401);
  });
});
