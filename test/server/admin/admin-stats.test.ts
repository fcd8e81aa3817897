import { describe, expect, test } from "bun:test";
import { purchases } from "../../../src/db/schema/index.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

async function setup() {
  const t = await createTestApp();
  const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true, subscriptionType: "pro" });
  const stats = async () => (await t.call("GET", "/api/admin/stats", { token: admin.token })).body;
  return { ...t, admin, stats };
}

describe("GET /api/admin/stats", () => {
  test("answers the five fields of the spec, every plan present", async () => {
    const { stats } = await setup();
    expect(await stats()).toEqual({
      total_users: 1,
      total_revenue: 0,
      completed_purchases: 0,
      recent_users_7_days: 1,
      users_by_subscription: { trial: 0, basic: 0, pro: 1, expired: 0 },
    });
  });

  test("revenue is the sum of completed purchases in euros; refunded ones are left out", async () => {
    const { db, clock, stats, admin } = await setup();
    const base = { userId: admin.user.id, createdAt: clock.now() };
    await db.insert(purchases).values([
      { ...base, productType: "subscription_basic", amountCents: 1199 },
      { ...base, productType: "subscription_pro", amountCents: 2990 },
      { ...base, productType: "token_pack_10", amountCents: 999, status: "refunded" },
    ]);
    const s = await stats();
    expect(s.total_revenue).toBe(41.89);
    expect(s.completed_purchases).toBe(2);
  });

  test("purchases of a deleted user still count (anonymised, user_id null)", async () => {
    const { db, clock, stats } = await setup();
    await db.insert(purchases).values({ userId: null, productType: "subscription_pro_annual", amountCents: 29900, createdAt: clock.now() });
    expect((await stats()).total_revenue).toBe(299);
  });

  test("a trial past its end and a trial out of requests count as expired", async () => {
    const { db, clock, stats } = await setup();
    const now = clock.now();
    await makeUser(db, now); // active trial
    await makeUser(db, now, { trialEndsAt: new Date(now.getTime() - 1) });
    await makeUser(db, now, { planQueries: 0, extraQueries: 0 });
    await makeUser(db, now, { subscriptionType: "basic" });
    await makeUser(db, now, { subscriptionType: "expired" });
    const s = await stats();
    expect(s.users_by_subscription).toEqual({ trial: 1, basic: 1, pro: 1, expired: 3 });
    expect(s.total_users).toBe(6);
  });

  test("a trial with only extra requests left is still a trial", async () => {
    const { db, clock, stats } = await setup();
    await makeUser(db, clock.now(), { planQueries: 0, extraQueries: 3 });
    expect((await stats()).users_by_subscription.trial).toBe(1);
  });

  test("recent_users_7_days counts accounts created in the last 7 days only", async () => {
    const { db, clock, stats } = await setup();
    const now = clock.now();
    await makeUser(db, now, { createdAt: new Date(now.getTime() - 6 * DAY) });
    await makeUser(db, now, { createdAt: new Date(now.getTime() - 8 * DAY) });
    const s = await stats();
    expect(s.total_users).toBe(3);
    expect(s.recent_users_7_days).toBe(2);
  });
});
