import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/** An admin plus `n` other users, each created one minute after the previous one. */
async function setup(n: number) {
  const t = await createTestApp();
  const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true, email: "admin@example.fr" });
  const others = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(60_000);
    others.push((await makeUser(t.db, t.clock.now())).user);
  }
  const list = (qs = "") => t.call("GET", `/api/admin/users${qs}`, { token: admin.token });
  return { ...t, admin, others, list };
}

describe("GET /api/admin/users", () => {
  test("answers users and total, newest first, as the spec's user objects", async () => {
    const { list, others } = await setup(2);
    const res = await list("?page=1&per_page=10");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.users.map((u: { id: number }) => u.id)).toEqual([others[1]!.id, others[0]!.id, expect.any(Number)]);
    // api_keys: issue 22 (personal API keys counted in the admin panel).
    expect(Object.keys(res.body.users[0]).sort()).toEqual([
      "api_keys",
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
  });

  test("exactly 10 users fill one page; the second page is empty", async () => {
    const { list } = await setup(9);
    const first = await list("?page=1&per_page=10");
    expect(first.body.users).toHaveLength(10);
    expect(first.body.total).toBe(10);
    const second = await list("?page=2&per_page=10");
    expect(second.status).toBe(200);
    expect(second.body.users).toEqual([]);
    expect(second.body.total).toBe(10);
  });

  test("11 users: 10 on the first page, the oldest alone on the second", async () => {
    const { list, admin } = await setup(10);
    expect((await list("?page=1&per_page=10")).body.users).toHaveLength(10);
    const second = await list("?page=2&per_page=10");
    expect(second.body.users.map((u: { id: number }) => u.id)).toEqual([admin.user.id]);
    expect(second.body.total).toBe(11);
  });

  test("page and per_page default to 1 and 10", async () => {
    const { list } = await setup(12);
    const res = await list();
    expect(res.body.users).toHaveLength(10);
    expect(res.body.page).toBe(1);
    expect(res.body.per_page).toBe(10);
  });

  for (const [qs, detail] of [
    ["?page=0", "Le numéro de page doit être un entier supérieur ou égal à 1"],
    ["?page=abc", "Le numéro de page doit être un entier supérieur ou égal à 1"],
    ["?page=-1", "Le numéro de page doit être un entier supérieur ou égal à 1"],
    ["?page=1.5", "Le numéro de page doit être un entier supérieur ou égal à 1"],
    ["?per_page=0", "Le nombre d'utilisateurs par page doit être un entier entre 1 et 100"],
    ["?per_page=101", "Le nombre d'utilisateurs par page doit être un entier entre 1 et 100"],
    ["?per_page=dix", "Le nombre d'utilisateurs par page doit être un entier entre 1 et 100"],
  ] as const) {
    test(`${qs} answers 400 with a French detail`, async () => {
      const { list } = await setup(0);
      const res = await list(qs);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail });
    });
  }

  test("per_page=100 is accepted", async () => {
    const { list } = await setup(3);
    const res = await list("?per_page=100");
    expect(res.status).toBe(200);
    expect(res.body.users).toHaveLength(4);
  });

  test("q filters on e-mail, case-insensitively", async () => {
    const { list, others } = await setup(3);
    const res = await list(`?q=${encodeURIComponent(others[1]!.email.toUpperCase())}`);
    expect(res.body.users.map((u: { id: number }) => u.id)).toEqual([others[1]!.id]);
    expect(res.body.total).toBe(1);
  });

  test("q filters on the full name", async () => {
    const t = await setup(0);
    const { user } = await makeUser(t.db, t.clock.now(), { firstName: "Élodie", lastName: "Durand" });
    await makeUser(t.db, t.clock.now(), { firstName: "Paul", lastName: "Durandal" });
    const res = await t.list(`?q=${encodeURIComponent("Élodie Durand")}`);
    expect(res.body.users.map((u: { id: number }) => u.id)).toEqual([user.id]);
  });

  test("q treats % and _ literally", async () => {
    const { list } = await setup(3);
    const res = await list("?q=%25");
    expect(res.body.users).toEqual([]);
    expect(res.body.total).toBe(0);
  });

  test("plan filters on the effective plan", async () => {
    const t = await setup(1);
    const { user } = await makeUser(t.db, t.clock.now(), { trialEndsAt: new Date(t.clock.now().getTime() - 1000) });
    const res = await t.list("?plan=expired");
    expect(res.body.users.map((u: { id: number }) => u.id)).toEqual([user.id]);
    expect(res.body.users[0].subscription_type).toBe("expired");
  });
});
