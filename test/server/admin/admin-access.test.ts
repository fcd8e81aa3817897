import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const endpoints: Array<[string, string, unknown?]> = [
  ["GET", "/api/admin/stats"],
  ["GET", "/api/admin/users?page=1&per_page=10"],
  ["PUT", "/api/admin/users/1", { first_name: "A", last_name: "B", email: "a@example.fr" }],
  ["DELETE", "/api/admin/users/1"],
];

describe("admin API access", () => {
  for (const [method, path, json] of endpoints) {
    test(`${method} ${path} without a session answers 401 with the spec's text`, async () => {
      const { call } = await createTestApp();
      const res = await call(method, path, { json });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: "Session expirée. Veuillez vous reconnecter." });
    });

    test(`${method} ${path} for a regular user answers 403 with the spec's text`, async () => {
      const { call, db, clock } = await createTestApp();
      const { token } = await makeUser(db, clock.now());
      const res = await call(method, path, { json, token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: "Accès refusé. Privilèges administrateur requis." });
    });
  }

  test("a regular user's 403 changes nothing: the target of a DELETE still exists", async () => {
    const { call, db, clock } = await createTestApp();
    const { user: victim } = await makeUser(db, clock.now());
    const { token } = await makeUser(db, clock.now());
    await call("DELETE", `/api/admin/users/${victim.id}`, { token });
    const admin = await makeUser(db, clock.now(), { isAdmin: true });
    const list = await call("GET", "/api/admin/users", { token: admin.token });
    expect(list.body.users.map((u: { id: number }) => u.id)).toContain(victim.id);
  });

  test("a revoked admin session answers 401", async () => {
    const { call, db, clock } = await createTestApp();
    const { user, token } = await makeUser(db, clock.now(), { isAdmin: true });
    const { revokeAllSessions } = await import("../../../src/auth/sessions.ts");
    await revokeAllSessions(db, user.id, clock.now());
    const res = await call("GET", "/api/admin/stats", { token });
    expect(res.status).toBe(401);
  });
});
