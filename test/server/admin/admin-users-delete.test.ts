import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { conversations, messages, purchases, sessions, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

function setup() {
  const t = createTestApp();
  const admin = makeUser(t.db, t.clock.now(), { isAdmin: true });
  const target = makeUser(t.db, t.clock.now());
  const now = t.clock.now();
  const conv = t.db.insert(conversations).values({ userId: target.user.id, title: "Q", createdAt: now, updatedAt: now }).returning().get();
  t.db.insert(messages).values({ conversationId: conv.id, sender: "user", content: "Bonjour", createdAt: now }).run();
  t.db.insert(purchases).values({ userId: target.user.id, productType: "subscription_basic", amountCents: 1199, createdAt: now }).run();
  const del = (id: number, token = admin.token) => t.call("DELETE", `/api/admin/users/${id}`, { token });
  return { ...t, admin, target, del };
}

describe("DELETE /api/admin/users/{id}", () => {
  test("deletes the user and answers success", async () => {
    const { del, target, db } = setup();
    const res = await del(target.user.id);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(db.select().from(users).where(eq(users.id, target.user.id)).get()).toBeUndefined();
  });

  test("their conversations, messages and sessions go with them", async () => {
    const { del, target, db } = setup();
    await del(target.user.id);
    expect(db.select().from(conversations).all()).toEqual([]);
    expect(db.select().from(messages).all()).toEqual([]);
    expect(db.select().from(sessions).where(eq(sessions.userId, target.user.id)).all()).toEqual([]);
  });

  test("the deleted user's token no longer opens a session", async () => {
    const { del, target, call } = setup();
    await del(target.user.id);
    const res = await call("GET", "/api/admin/stats", { token: target.token });
    expect(res.status).toBe(401);
  });

  test("purchases are kept for accounting, anonymised", async () => {
    const { del, target, db } = setup();
    await del(target.user.id);
    const rows = db.select().from(purchases).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userId).toBeNull();
    expect(rows[0]!.amountCents).toBe(1199);
  });

  test("an admin cannot delete their own account (400), which stays", async () => {
    const { del, admin, db } = setup();
    const res = await del(admin.user.id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Vous ne pouvez pas supprimer votre propre compte." });
    expect(db.select().from(users).where(eq(users.id, admin.user.id)).get()).toBeDefined();
  });

  test("another admin can be deleted", async () => {
    const { del, db, clock } = setup();
    const other = makeUser(db, clock.now(), { isAdmin: true });
    expect((await del(other.user.id)).status).toBe(200);
  });

  test("an unknown user answers 404", async () => {
    const { del } = setup();
    const res = await del(424242);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Utilisateur introuvable.");
  });

  test("a second delete of the same user answers 404", async () => {
    const { del, target } = setup();
    await del(target.user.id);
    expect((await del(target.user.id)).status).toBe(404);
  });
});
