import type { Db } from "../../../src/db/client.ts";
import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { renewalJobs } from "../../../src/billing/renewals.job.ts";
import { pendingPlanChanges, users } from "../../../src/db/schema/index.ts";
import { runJobsOnce } from "../../../src/jobs/scheduler.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { billingApp, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

const userRow = async (db: Db, id: number) => (await first(db.select().from(users).where(eq(users.id, id))))!;
type T = Awaited<ReturnType<typeof billingApp>>;

/** A Stripe subscriber on `product`, paid on the test clock's day (15 Jan 2026). */
async function subscriber(t: T, product = "subscription_basic") {
  const { user, token } = await t.user();
  const id = await t.subscribe(token, product);
  const subId = t.fake.sessions.get(id)!.subscription!;
  return { user, token, subId };
}

const change = (t: T, token: string, json: Record<string, unknown>) => t.call("POST", "/api/subscription/request-change", { token, json });

describe("subscription changes", () => {
  test("basic -> pro is immediate: Stripe prorates and 30 requests are added to what remains", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t);
    await t.db.update(users).set({ planQueries: 4 }).where(eq(users.id, user.id));
    const res = await change(t, token, { target_subscription_type: "pro", target_billing_cycle: "monthly", user_reason: "plus de requêtes" });
    expect(res.status).toBe(200);
    expect(res.body.current_plan).toBe("pro");
    expect((await userRow(t.db, user.id)).planQueries).toBe(34);
    const sub = t.fake.state.subscriptions.get(subId)!;
    expect(sub.items.data[0].price.unit_amount).toBe(2990);
    expect(t.fake.requests.some((r) => r.path === `/v1/subscriptions/${subId}` && r.body.proration_behavior === "always_invoice")).toBe(true);
  });

  test("a downgrade waits for the renewal date, access kept until then", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t, "subscription_pro");
    const res = await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "monthly", user_reason: "" });
    expect(res.body.scheduled_date).toBe("2026-02-15T10:00:00.000Z");
    t.clock.set("2026-02-15T10:00:00.000Z");
    // Stripe decides: the local job leaves a Stripe subscriber's downgrade to Stripe's schedule.
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("pro");
    await t.webhook(t.fake.event("invoice.paid", t.fake.state.renew(subId)));
    const row = await userRow(t.db, user.id);
    expect(row.subscriptionType).toBe("basic");
    expect(row.planQueries).toBe(10);
    expect((await first(t.db.select().from(pendingPlanChanges)))!.status).toBe("applied");
  });

  test("a downgrade at Stripe is a subscription schedule whose next phase is the new price", async () => {
    const t = await billingApp();
    const { token, subId } = await subscriber(t, "subscription_pro");
    await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "annual" });
    const sched = [...t.fake.state.schedules.values()][0]!;
    expect(sched.subscription).toBe(subId);
    expect(sched.phases).toHaveLength(2);
    expect(sched._prices.at(-1).unit_amount).toBe(11900);
  });

  test("a cycle change is scheduled and then sets the annual period", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t);
    await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "annual" });
    t.clock.set("2026-02-15T10:00:00.000Z");
    await t.webhook(t.fake.event("invoice.paid", t.fake.state.renew(subId)));
    const row = await userRow(t.db, user.id);
    expect(row.billingCycle).toBe("annual");
    expect(row.periodEndsAt!.toISOString()).toBe("2027-02-15T10:00:00.000Z");
  });

  test("cancel sets cancel_at_period_end at Stripe and expires the plan at the renewal date", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t);
    const res = await change(t, token, { target_subscription_type: "expired" });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain("15/02/2026");
    expect(t.fake.state.subscriptions.get(subId)!.cancel_at_period_end).toBe(true);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("basic");
    t.clock.advance(31 * DAY);
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("expired");
  });

  test("cancel-change drops a pending cancellation, at Stripe too, and the plan carries on", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t);
    await change(t, token, { target_subscription_type: "expired" });
    const res = await t.call("DELETE", "/api/subscription/cancel-change", { token });
    expect(res.status).toBe(200);
    expect(t.fake.state.subscriptions.get(subId)!.cancel_at_period_end).toBe(false);
    t.clock.advance(31 * DAY);
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("basic");
  });

  test("cancel-change releases the Stripe schedule of a downgrade", async () => {
    const t = await billingApp();
    const { token } = await subscriber(t, "subscription_pro");
    await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "monthly" });
    await t.call("DELETE", "/api/subscription/cancel-change", { token });
    expect([...t.fake.state.schedules.values()][0]!.status).toBe("released");
  });

  test("cancel-change without a pending change answers 404", async () => {
    const t = await billingApp();
    const { token } = await subscriber(t);
    const res = await t.call("DELETE", "/api/subscription/cancel-change", { token });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Aucun changement de forfait en attente.");
  });

  test("a second change while one is pending answers 409", async () => {
    const t = await billingApp();
    const { token } = await subscriber(t, "subscription_pro");
    await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "monthly" });
    const res = await change(t, token, { target_subscription_type: "expired" });
    expect(res.status).toBe(409);
  });

  test("a change that is not offered answers 400", async () => {
    const t = await billingApp();
    const { token } = await subscriber(t);
    const res = await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "monthly" });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Ce changement de forfait n'est pas proposé pour votre abonnement.");
  });

  test("a trial user cannot request a change", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await change(t, token, { target_subscription_type: "pro", target_billing_cycle: "monthly" });
    expect(res.status).toBe(400);
  });

  // Issue 12 changed this: a plan without a Stripe subscription is no longer changed through request-change.
  for (const target of ["pro", "basic"] as const) {
    test(`a plan set by the CLI is not changed to ${target} for free: 400, sent to Checkout, no Stripe call`, async () => {
      const t = await billingApp();
      const plan = target === "pro" ? "basic" : "pro";
      const { user, token } = await t.user({
        subscriptionType: plan,
        billingCycle: "monthly",
        planStartedAt: t.clock.now(),
        periodEndsAt: new Date("2026-02-15T10:00:00.000Z"),
      });
      const before = t.fake.requests.length;
      const res = await change(t, token, { target_subscription_type: target, target_billing_cycle: "monthly" });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain("Tarifs");
      expect(t.fake.requests.length).toBe(before);
      expect(await userRow(t.db, user.id)).toMatchObject({ subscriptionType: plan, planQueries: plan === "pro" ? 30 : 10 });
      expect((await t.me(token)).body.pending_change).toBeNull();
    });
  }

  test("a plan set by the CLI can be replaced by a paid subscription through Checkout", async () => {
    const t = await billingApp();
    const { user, token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly" });
    await t.subscribe(token, "subscription_pro");
    expect(await userRow(t.db, user.id)).toMatchObject({ subscriptionType: "pro", planQueries: 30 });
    expect((await userRow(t.db, user.id)).stripeSubscriptionId).toMatch(/^sub_/);
  });

  test("a Stripe failure leaves nothing scheduled", async () => {
    const t = await billingApp();
    const { token } = await subscriber(t, "subscription_pro");
    t.fake.failNext("/v1/subscription_schedules");
    const res = await change(t, token, { target_subscription_type: "basic", target_billing_cycle: "monthly" });
    expect(res.status).toBe(502);
    expect((await t.me(token)).body.pending_change).toBeNull();
  });
});

describe("GET /api/subscription/status and upgrade prices", () => {
  test("status shows plan, cycle, renewal date and the pending change", async () => {
    const t = await billingApp();
    const { token } = await subscriber(t, "subscription_pro");
    await change(t, token, { target_subscription_type: "expired" });
    const res = await t.me(token);
    expect(res.body).toMatchObject({
      current_subscription: "pro",
      current_billing_cycle: "monthly",
      next_renewal_date: "2026-02-15T10:00:00.000Z",
      pending_change: { target_plan: "expired", scheduled_date: "2026-02-15T10:00:00.000Z" },
    });
  });

  test("the pro upgrade of a basic user half-way through the month is prorated", async () => {
    const t = await billingApp();
    const start = new Date("2026-01-01T00:00:00.000Z");
    t.clock.set("2026-01-16T12:00:00.000Z");
    const { token } = await t.user({
      subscriptionType: "basic",
      billingCycle: "monthly",
      planStartedAt: start,
      periodEndsAt: new Date("2026-02-01T00:00:00.000Z"),
      stripeSubscriptionId: "sub_x",
    });
    const res = await t.call("GET", "/api/stripe/upgrade-price/subscription_pro", { token });
    expect(res.body.is_upgrade).toBe(true);
    expect(res.body.prorated_credit).toBe(6);
    expect(res.body.upgrade_price).toBe(8.96);
  });

  test("a plan an operator set gets no proration credit: Checkout charges the full price", async () => {
    const t = await billingApp();
    t.clock.set("2026-01-16T12:00:00.000Z");
    const { token } = await t.user({
      subscriptionType: "basic",
      billingCycle: "monthly",
      planStartedAt: new Date("2026-01-01T00:00:00.000Z"),
      periodEndsAt: new Date("2026-02-01T00:00:00.000Z"),
    });
    const res = await t.call("GET", "/api/stripe/upgrade-price/subscription_pro", { token });
    expect(res.body).toMatchObject({ is_upgrade: true, prorated_credit: 0, upgrade_price: 29.9 });
  });

  test("an annual offer that is not an upgrade shows its savings", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.call("GET", "/api/stripe/upgrade-price/subscription_pro_annual", { token });
    expect(res.body).toMatchObject({ is_upgrade: false, prorated_credit: 0, upgrade_price: 299 });
    expect(res.body.savings_message).toBe("Économisez 59,80 € par an (2 mois gratuits).");
  });
});
