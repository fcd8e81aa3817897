import { describe, expect, test } from "bun:test";
import { setAdmin } from "../../../src/admin/admin.service.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { lastResetToken, mails } from "../auth/auth.helpers.ts";

/**
 * A password reset, an e-mail change and a privilege change end the
 * account's personal API keys together with its sessions: a key must not
 * outlive the password (or the identity) it was made under.
 */
type App = Awaited<ReturnType<typeof createTestApp>>;

async function withKey(t: App, values: Parameters<typeof makeUser>[2] = {}) {
  const { user, token } = await makeUser(t.db, t.clock.now(), values);
  const created = await t.call("POST", "/api/auth/api-keys", { token, json: { name: "Script" } });
  expect(created.status).toBe(201);
  const secret: string = created.body.secret;
  const v1 = async () => (await t.call("GET", "/v1/models", { token: secret })).status;
  expect(await v1()).toBe(200);
  return { user, token, v1 };
}

async function resetPasswordOf(t: App, email: string) {
  expect((await t.call("POST", "/api/auth/forgot-password", { json: { email } })).status).toBe(200);
  const res = await t.call("POST", "/api/auth/reset-password", { json: { token: await lastResetToken(t.db, email), new_password: "Nouveau2026" } });
  expect(res.status).toBe(200);
}

describe("credentials end together", () => {
  test("a password reset revokes the account's API keys with its sessions", async () => {
    const t = await createTestApp();
    const { user, token, v1 } = await withKey(t);
    await resetPasswordOf(t, user.email);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect(await v1()).toBe(401);
  });

  test("the mail confirming the reset says the sessions ended and the API keys were revoked", async () => {
    const t = await createTestApp();
    const { user } = await withKey(t);
    await resetPasswordOf(t, user.email);
    const [mail] = await mails(t.db, user.email, "password_changed");
    expect(mail?.subject).toBe("Votre mot de passe Unisson a été modifié");
    expect(mail?.text).toContain("Vos clés d'API ont été révoquées");
    expect(mail?.text).toContain("toutes vos sessions ont été fermées");
    expect(mail?.html).toContain("Vos clés d&#39;API ont été révoquées");
  });

  test("an admin changing a user's e-mail revokes that user's API keys", async () => {
    const t = await createTestApp();
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const { user, v1 } = await withKey(t);
    const body = { first_name: user.firstName, last_name: user.lastName, email: "nouvelle-adresse@example.fr" };
    expect((await t.call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: body })).status).toBe(200);
    expect(await v1()).toBe(401);
  });

  test("an admin changing only a user's name leaves the keys alone", async () => {
    const t = await createTestApp();
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const { user, v1 } = await withKey(t);
    const body = { first_name: "Autre", last_name: user.lastName, email: user.email };
    expect((await t.call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: body })).status).toBe(200);
    expect(await v1()).toBe(200);
  });

  test("granting admin revokes the account's API keys (a key made before cannot carry the new rights)", async () => {
    const t = await createTestApp();
    const { user, v1 } = await withKey(t);
    await setAdmin(t.deps, user.id, true);
    expect(await v1()).toBe(401);
  });

  test("removing admin revokes the account's API keys", async () => {
    const t = await createTestApp();
    const { user, v1 } = await withKey(t, { isAdmin: true });
    await setAdmin(t.deps, user.id, false);
    expect(await v1()).toBe(401);
  });
});
