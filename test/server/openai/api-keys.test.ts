import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiKeys, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const KEYS = "/api/auth/api-keys";

async function app() {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now());
  return { ...t, user, token };
}

describe("personal API keys", () => {
  test("creating a key shows a uns_ secret once; only its hash is stored", async () => {
    const t = await app();
    const res = await t.call("POST", KEYS, { token: t.token, json: { name: "Open WebUI" } });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^uns_[A-Za-z0-9_-]{43}$/);
    expect(res.body.prefix).toBe(res.body.secret.slice(0, 12));
    expect(res.body.name).toBe("Open WebUI");
    const stored = JSON.stringify(await t.db.select().from(apiKeys));
    expect(stored).not.toContain(res.body.secret);
    expect(stored).toContain(new Bun.CryptoHasher("sha256").update(res.body.secret).digest("hex"));
  });

  test("the list gives name, prefix, creation and last use, never the secret", async () => {
    const t = await app();
    const created = await t.call("POST", KEYS, { token: t.token, json: { name: "Script" } });
    const list = await t.call("GET", KEYS, { token: t.token });
    expect(list.status).toBe(200);
    expect(list.body.keys).toEqual([
      { id: created.body.id, name: "Script", prefix: created.body.prefix, created_at: t.clock.now().toISOString(), last_used_at: null },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
  });

  test("a use of the key is recorded as its last use", async () => {
    const t = await app();
    const created = await t.call("POST", KEYS, { token: t.token, json: { name: "Script" } });
    expect((await t.call("GET", "/v1/models", { token: created.body.secret })).status).toBe(200);
    const list = await t.call("GET", KEYS, { token: t.token });
    expect(list.body.keys[0].last_used_at).toBe(t.clock.now().toISOString());
  });

  test("a name is required, in French", async () => {
    const t = await app();
    const res = await t.call("POST", KEYS, { token: t.token, json: { name: "  " } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("Donnez un nom à la clé");
  });

  test("at most 10 live keys per user; revoking one frees a place", async () => {
    const t = await app();
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push((await t.call("POST", KEYS, { token: t.token, json: { name: `k${i}` } })).body.id);
    const eleventh = await t.call("POST", KEYS, { token: t.token, json: { name: "trop" } });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.detail).toContain("10 clés d'API");
    await t.call("DELETE", `${KEYS}/${ids[0]}`, { token: t.token });
    expect((await t.call("POST", KEYS, { token: t.token, json: { name: "remplace" } })).status).toBe(201);
  });

  test("revoking a key closes /v1 to it at once and drops it from the list", async () => {
    const t = await app();
    const created = await t.call("POST", KEYS, { token: t.token, json: { name: "Script" } });
    const del = await t.call("DELETE", `${KEYS}/${created.body.id}`, { token: t.token });
    expect(del.status).toBe(200);
    expect((await t.call("GET", KEYS, { token: t.token })).body.keys).toEqual([]);
    const res = await t.call("GET", "/v1/models", { token: created.body.secret });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_api_key");
  });

  test("another user's key cannot be revoked and reads as missing", async () => {
    const t = await app();
    const other = await makeUser(t.db, t.clock.now());
    const created = await t.call("POST", KEYS, { token: other.token, json: { name: "À moi" } });
    const res = await t.call("DELETE", `${KEYS}/${created.body.id}`, { token: t.token });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Clé d'API introuvable.");
    expect((await t.call("GET", "/v1/models", { token: created.body.secret })).status).toBe(200);
  });

  test("a key opens no web route: session, keys, billing and admin answer 401", async () => {
    const t = await app();
    await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, t.user.id));
    const { secret } = (await t.call("POST", KEYS, { token: t.token, json: { name: "Script" } })).body;
    for (const [method, path] of [
      ["GET", "/api/auth/me"],
      ["GET", KEYS],
      ["POST", KEYS],
      ["GET", "/api/unisson/history"],
      ["GET", "/api/subscription/status"],
      ["GET", "/api/admin/users"],
    ] as const) {
      const res = await t.call(method, path, { token: secret, json: method === "POST" ? { name: "x" } : undefined });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 401`);
    }
  });

  test("a web session token opens no /v1 route", async () => {
    const t = await app();
    const res = await t.call("GET", "/v1/models", { token: t.token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toContain("Clé d'API invalide");
  });

  test("deleting the account revokes its keys", async () => {
    const t = await app();
    const { secret } = (await t.call("POST", KEYS, { token: t.token, json: { name: "Script" } })).body;
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    expect((await t.call("DELETE", `/api/admin/users/${t.user.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.call("GET", "/v1/models", { token: secret })).status).toBe(401);
  });
});

describe("API keys in the admin panel", () => {
  test("the user list counts each user's live keys", async () => {
    const t = await app();
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const a = await t.call("POST", KEYS, { token: t.token, json: { name: "un" } });
    await t.call("POST", KEYS, { token: t.token, json: { name: "deux" } });
    await t.call("DELETE", `${KEYS}/${a.body.id}`, { token: t.token });
    const res = await t.call("GET", "/api/admin/users", { token: admin.token });
    const row = (id: number) => res.body.users.find((u: { id: number }) => u.id === id);
    expect(row(t.user.id).api_keys).toBe(1);
    expect(row(admin.user.id).api_keys).toBe(0);
  });
});
