import { describe, expect, test } from "bun:test";
import { createPasswordResetLink } from "../../../src/auth/password-reset.ts";
import { MINUTE } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { deviceCookie, lastCode, lastResetToken, mails } from "./auth.helpers.ts";

const NEW_PASSWORD = "Nouveau2026";

async function setup(values: Parameters<typeof makeUser>[2] = {}) {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now(), values);
  const forgot = (email = user.email) => t.call("POST", "/api/auth/forgot-password", { json: { email } });
  const reset = (tok: string, new_password = NEW_PASSWORD) => t.call("POST", "/api/auth/reset-password", { json: { token: tok, new_password } });
  const login = (password: string, headers: Record<string, string> = {}) =>
    t.call("POST", "/api/auth/login", { json: { email: user.email, password }, headers });
  return { ...t, user, token, forgot, reset, login };
}

describe("POST /api/auth/forgot-password", () => {
  test("mails a reset link PUBLIC_URL/reset-password?token=... to a known address", async () => {
    const { forgot, db, user } = await setup();
    const res = await forgot();
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const [mail] = await mails(db, user.email, "reset");
    expect(mail?.text).toMatch(/http:\/\/localhost:3000\/reset-password\?token=[\w-]{40,}/);
    expect(mail?.text).toContain("valable 60 minutes");
  });

  test("answers an unknown address exactly like a known one, and mails nothing", async () => {
    const { forgot, db } = await setup();
    const known = await forgot();
    const unknown = await forgot("nobody@example.fr");
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(await mails(db, "nobody@example.fr")).toHaveLength(0);
  });

  test("refuses a blank address with 'Veuillez saisir votre adresse email'", async () => {
    const { call } = await setup();
    const res = await call("POST", "/api/auth/forgot-password", { json: { email: "" } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Veuillez saisir votre adresse email");
  });
});

describe("GET /api/auth/validate-reset-token/{token}", () => {
  test("a fresh link is valid for 60 minutes and names its account", async () => {
    const { forgot, call, db, user } = await setup();
    await forgot();
    const res = await call("GET", `/api/auth/validate-reset-token/${await lastResetToken(db, user.email)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true, email: user.email, expires_in_minutes: 60, error: null });
  });

  test("counts down the minutes left", async () => {
    const { forgot, call, clock, db, user } = await setup();
    await forgot();
    clock.advance(45 * MINUTE);
    const res = await call("GET", `/api/auth/validate-reset-token/${await lastResetToken(db, user.email)}`);
    expect(res.body.expires_in_minutes).toBe(15);
  });

  test("a link older than one hour is invalid, with the spec's message", async () => {
    const { forgot, call, clock, db, user } = await setup();
    await forgot();
    clock.advance(60 * MINUTE);
    const res = await call("GET", `/api/auth/validate-reset-token/${await lastResetToken(db, user.email)}`);
    expect(res.body).toEqual({ valid: false, email: null, expires_in_minutes: 0, error: "Ce lien de réinitialisation est invalide ou a expiré." });
  });

  test("an unknown token is invalid", async () => {
    const { call } = await setup();
    const res = await call("GET", "/api/auth/validate-reset-token/nope");
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
  });
});

describe("POST /api/auth/reset-password", () => {
  test("sets the new password: it logs in, the old one no longer does", async () => {
    const { forgot, reset, login, db, user } = await setup();
    await forgot();
    const res = await reset(await lastResetToken(db, user.email));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    expect((await login(TEST_PASSWORD)).status).toBe(401);
  });

  test("does not sign the user in (no token in the answer)", async () => {
    const { forgot, reset, db, user } = await setup();
    await forgot();
    const res = await reset(await lastResetToken(db, user.email));
    expect(res.body.token).toBeUndefined();
  });

  test("revokes every session of the account", async () => {
    const { forgot, reset, call, db, user, token } = await setup();
    await forgot();
    await reset(await lastResetToken(db, user.email));
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
  });

  test("forgets every remembered device of the account", async () => {
    const t = await setup({ isAdmin: true });
    await t.call("POST", "/api/auth/2fa/request", { json: { email: t.user.email, password: TEST_PASSWORD } });
    const verified = await t.call("POST", "/api/auth/2fa/verify", {
      json: { email: t.user.email, code: await lastCode(t.db, t.user.email), remember_device: true },
    });
    const cookie = deviceCookie(verified.headers)!;
    await t.forgot();
    await t.reset(await lastResetToken(t.db, t.user.email));
    expect((await t.login(NEW_PASSWORD, { cookie })).status).toBe(202);
  });

  test("a link works once only", async () => {
    const { forgot, reset, db, user } = await setup();
    await forgot();
    const tok = await lastResetToken(db, user.email);
    await reset(tok);
    const again = await reset(tok, "Encore2027x");
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe("Ce lien de réinitialisation est invalide ou a expiré.");
  });

  test("an expired link is refused and the password stays", async () => {
    const { forgot, reset, login, clock, db, user } = await setup();
    await forgot();
    clock.advance(61 * MINUTE);
    expect((await reset(await lastResetToken(db, user.email))).status).toBe(400);
    expect((await login(TEST_PASSWORD)).status).toBe(200);
  });

  const weak: Array<[string, string]> = [
    ["Court1a", "Le mot de passe doit contenir au moins 8 caractères"],
    ["MAJUSCULE1", "Le mot de passe doit contenir au moins une lettre minuscule"],
    ["minuscule1", "Le mot de passe doit contenir au moins une lettre majuscule"],
    ["SansChiffre", "Le mot de passe doit contenir au moins un chiffre"],
  ];
  for (const [password, detail] of weak) {
    test(`refuses "${password}" with "${detail}" and keeps the link usable`, async () => {
      const { forgot, reset, call, db, user } = await setup();
      await forgot();
      const tok = await lastResetToken(db, user.email);
      const res = await reset(tok, password);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
      expect((await call("GET", `/api/auth/validate-reset-token/${tok}`)).body.valid).toBe(true);
    });
  }

  test("createPasswordResetLink makes a working link for the CLI", async () => {
    const { deps, reset, login, user } = await setup();
    const link = await createPasswordResetLink(deps, user.id);
    expect(link.url.startsWith("http://localhost:3000/reset-password?token=")).toBe(true);
    expect(link.expiresAt.getTime() - deps.clock.now().getTime()).toBe(60 * MINUTE);
    expect((await reset(new URL(link.url).searchParams.get("token")!)).status).toBe(200);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
  });
});
