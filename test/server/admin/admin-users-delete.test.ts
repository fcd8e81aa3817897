import { first, one } from "../../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { conversations, messages, purchases, sessions, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

async function setup() {
  const t = await createTestApp();
  const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
  const target = await makeUser(t.db, t.clock.now());
  const now = t.clock.now();
  const conv = await one(t.db.insert(conversations).values({ userId: target.user.id, title: "Q", createdAt: now, updatedAt: now }).returning());
  await t.db.insert(messages).values({ conversationId: conv.id, sender: "user", content: "Bonjour", createdAt: now });
  await t.db.insert(purchases).values({ userId: target.user.id, productType: "subscription_basic", amountCents: 1199, createdAt: now });
  const del = (id: number, token = admin.token) => t.call("DELETE", `/api/admin/users/${id}`, { token });
  return { ...t, admin, target, del };
}

describe("DELETE /api/admin/users/{id}", () => {
  test("deletes the user and answers success", async () => {
    const { del, target, db } = await setup();
    const res = await del(target.user.id);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await first(db.select().from(users).where(eq(users.id, target.user.id)))).toBeUndefined();
  });

  test("their conversations, messages and sessions go with them", async () => {
    const { del, target, db } = await setup();
    await del(target.user.id);
    expect(await db.select().from(conversations)).toEqual([]);
    expect(await db.select().from(messages)).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, target.user.id))).toEqual([]);
  });

  test("the deleted user's token no longer opens a session", async () => {
    const { del, target, call } = await setup();
    await del(target.user.id);
    const res = await call("GET", "/api/admin/stats", { token: target.token });
    expect(res.status).toBe(401);
  });

  test("purchases are kept for accounting, anonymised", async () => {
    const { del, target, db } = await setup();
    await del(target.user.id);
    const rows = await db.select().from(purchases);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userId).toBeNull();
    expect(rows[0]!.amountCents).toBe(1199);
  });

  test("an admin cannot delete their own account (400), which stays", async () => {
    const { del, admin, db } = await setup();
    const res = await del(admin.user.id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Vous ne pouvez pas supprimer votre propre compte." });
    expect(await first(db.select().from(users).where(eq(users.id, admin.user.id)))).toBeDefined();
  });

  test("another admin can be deleted", async () => {
    const { del, db, clock } = await setup();
    const other = await makeUser(db, clock.now(), { isAdmin: true });
    expect((await del(other.user.id)).status).toBe(200);
  });

  test("an unknown user answers 404", async () => {
    const { del } = await setup();
    const res = await del(424242);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Utilisateur introuvable.");
  });

  test("a second delete of the same user answers 404", async () => {
    const { del, target } = await setup();
    await del(target.user.id);
    expect((await del(target.user.id)).status).toBe(404);
  });
});
