import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { fulfilments, pendingPlanChanges, purchases, stripeEvents, users } from "../../../src/db/schema/index.ts";
import { publicSession } from "../../fakes/stripe/state.ts";
import { billingApp, sessionId, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

type T = Awaited<ReturnType<typeof billingApp>>;
const userRow = async (t: T, id: number) => (await first(t.db.select().from(users).where(eq(users.id, id))))!;

/** Everything an event may change for the user: account, money rows, pending changes, recorded events. */
async function snapshot(t: T, userId: number) {
  return {
    user: await userRow(t, userId),
    purchases: await t.db.select().from(purchases),
    fulfilments: await t.db.select().from(fulfilments),
    pending: await t.db.select().from(pendingPlanChanges),
    events: await t.db.select().from(stripeEvents),
  };
}

/** Replays `evt` a minute later (any write would move updated_at): answered as a duplicate, nothing changes. */
async function expectReplayChangesNothing(t: T, evt: unknown, userId: number) {
  t.clock.advance(60_000);
  const before = await snapshot(t, userId);
  const replay = await t.webhook(evt);
  expect(replay.status).toBe(200);
  expect(replay.body.duplicate).toBe(true);
  expect(await snapshot(t, userId)).toEqual(before);
}

/** A checkout paid with a delayed method (SEPA): complete at Stripe, payment still pending. */
async function pendingAsyncSession(t: T, product = "subscription_basic", values: Partial<typeof users.$inferInsert> = {}) {
  const { user, token } = await t.user(values);
  const res = await t.checkout(token, product);
  const id = sessionId(res.body.checkout_url);
  const session = t.fake.state.pay(id);
  session.payment_status = "unpaid";
  return { user, token, id, session, json: () => publicSession(session) };
}

/** A Stripe subscriber on `product`, with `values` set on the account afterwards. */
async function subscriber(t: T, product = "subscription_basic", values: Partial<typeof users.$inferInsert> = {}) {
  const { user, token } = await t.user();
  const id = await t.subscribe(token, product);
  if (Object.keys(values).length) await t.db.update(users).set(values).where(eq(users.id, user.id));
  const subId = t.fake.sessions.get(id)!.subscription!;
  return { user, token, id, subId, sub: () => t.fake.state.subscriptions.get(subId)! };
}

describe("checkout.session.async_payment_succeeded / failed", () => {
  test("a delayed payment that succeeds credits the plan once, not at checkout completion", async () => {
    const t = await billingApp();
    const { user, session, json } = await pendingAsyncSession(t);
    await t.webhook(t.fake.event("checkout.session.completed", json()));
    expect((await userRow(t, user.id)).subscriptionType).toBe("trial");
    expect(await t.db.select().from(purchases)).toEqual([]);

    session.payment_status = "paid";
    const evt = t.fake.event("checkout.session.async_payment_succeeded", json());
    expect((await t.webhook(evt)).status).toBe(200);
    const row = await userRow(t, user.id);
    expect(row.subscriptionType).toBe("basic");
    expect(row.planQueries).toBe(10);
    expect((await t.db.select().from(purchases)).map((p) => p.amountCents)).toEqual([1199]);
    await expectReplayChangesNothing(t, evt, user.id);
  });

  test("async_payment_succeeded after the status poll fulfilled the session credits nothing more", async () => {
    const t = await billingApp();
    const { user, token, id, session, json } = await pendingAsyncSession(t, "token_pack_10", { subscriptionType: "basic", billingCycle: "monthly" });
    session.payment_status = "paid";
    expect((await t.call("GET", `/api/stripe/checkout-status/${id}`, { token })).body.payment_status).toBe("paid");
    expect((await userRow(t, user.id)).extraQueries).toBe(10);

    const evt = t.fake.event("checkout.session.async_payment_succeeded", json());
    const res = await t.webhook(evt);
    expect(res.body.duplicate).toBe(false);
    expect((await userRow(t, user.id)).extraQueries).toBe(10);
    expect((await t.db.select().from(purchases)).length).toBe(1);
    expect((await t.db.select().from(fulfilments)).length).toBe(1);
    await expectReplayChangesNothing(t, evt, user.id);
  });

  test("a delayed payment that fails credits nothing and is logged", async () => {
    const t = await billingApp();
    const { user, token, id, json } = await pendingAsyncSession(t);
    const before = await userRow(t, user.id);
    const evt = t.fake.event("checkout.session.async_payment_failed", json());
    expect((await t.webhook(evt)).status).toBe(200);
    await t.call("GET", `/api/stripe/checkout-status/${id}`, { token });
    const row = await userRow(t, user.id);
    expect(row.subscriptionType).toBe("trial");
    expect(row.planQueries).toBe(before.planQueries);
    expect(row.stripeSubscriptionId).toBeNull();
    expect(await t.db.select().from(purchases)).toEqual([]);
    expect(await t.db.select().from(fulfilments)).toEqual([]);
    expect(t.log.lines.some((l) => l.includes("checkout payment failed") && l.includes(id))).toBe(true);
    await expectReplayChangesNothing(t, evt, user.id);
  });
});

describe("invoice.payment_failed", () => {
  test("a failed renewal keeps the plan and what remains of the allowance, and is logged", async () => {
    const t = await billingApp();
    const { user, subId } = await subscriber(t, "subscription_basic", { planQueries: 3 });
    t.clock.advance(31 * 86_400_000);
    t.fake.state.declining.add(t.fake.state.subscriptions.get(subId)!.customer);
    const invoice = t.fake.state.renew(subId);
    expect(invoice.status).toBe("open");
    const evt = t.fake.event("invoice.payment_failed", invoice);
    expect((await t.webhook(evt)).status).toBe(200);
    const row = await userRow(t, user.id);
    expect(row.subscriptionType).toBe("basic");
    expect(row.planQueries).toBe(3);
    expect(row.stripeSubscriptionId).toBe(subId);
    expect((await t.db.select().from(purchases)).length).toBe(1);
    expect(t.log.lines.some((l) => l.includes("invoice payment failed") && l.includes(invoice.id))).toBe(true);
    await expectReplayChangesNothing(t, evt, user.id);
  });

  test("the same renewal paid on Stripe's retry then resets the allowance", async () => {
    const t = await billingApp();
    const { user, subId } = await subscriber(t, "subscription_basic", { planQueries: 3 });
    t.clock.advance(31 * 86_400_000);
    const invoice = t.fake.state.renew(subId);
    invoice.status = "open";
    await t.webhook(t.fake.event("invoice.payment_failed", invoice));
    expect((await userRow(t, user.id)).planQueries).toBe(3);
    invoice.status = "paid";
    await t.webhook(t.fake.event("invoice.paid", invoice));
    expect((await userRow(t, user.id)).planQueries).toBe(10);
    expect((await t.db.select().from(purchases)).length).toBe(2);
  });
});

describe("customer.subscription.updated / deleted", () => {
  /** A pro subscriber with extra requests and a downgrade waiting for the renewal date. */
  async function proWithPendingDowngrade(t: T) {
    const s = await subscriber(t, "subscription_pro", { extraQueries: 7 });
    const change = { target_subscription_type: "basic", target_billing_cycle: "monthly" };
    expect((await t.call("POST", "/api/subscription/request-change", { token: s.token, json: change })).status).toBe(200);
    return s;
  }

  for (const status of ["canceled", "unpaid", "incomplete_expired"]) {
    test(`updated with status ${status} expires the account, keeps extra requests, drops the pending change`, async () => {
      const t = await billingApp();
      const { user, token, sub } = await proWithPendingDowngrade(t);
      sub().status = status; // Stripe decides: the subscription as Stripe holds it, not the event's copy
      const evt = t.fake.event("customer.subscription.updated", sub());
      expect((await t.webhook(evt)).status).toBe(200);
      const row = await userRow(t, user.id);
      expect(row.subscriptionType).toBe("expired");
      expect(row.planQueries).toBe(0);
      expect(row.extraQueries).toBe(7);
      expect(row.stripeSubscriptionId).toBeNull();
      expect((await t.me(token)).body.pending_change).toBeNull();
      await expectReplayChangesNothing(t, evt, user.id);
    });
  }

  test("updated with status past_due (Stripe still retrying) changes nothing", async () => {
    const t = await billingApp();
    const { user, token, sub } = await proWithPendingDowngrade(t);
    const before = await snapshot(t, user.id);
    sub().status = "past_due";
    await t.webhook(t.fake.event("customer.subscription.updated", sub()));
    const after = await snapshot(t, user.id);
    expect(after.user).toEqual(before.user);
    expect(after.pending).toEqual(before.pending);
    expect((await t.me(token)).body.pending_change.target_plan).toBe("basic");
  });

  test("deleted ends the plan, keeps extra requests and drops the pending change; a replay changes nothing", async () => {
    const t = await billingApp();
    const { user, token, sub } = await proWithPendingDowngrade(t);
    const evt = t.fake.event("customer.subscription.deleted", t.fake.state.cancelSubscription(sub().id));
    await t.webhook(evt);
    const row = await userRow(t, user.id);
    expect(row.subscriptionType).toBe("expired");
    expect(row.planQueries).toBe(0);
    expect(row.extraQueries).toBe(7);
    expect((await t.me(token)).body).toMatchObject({ current_subscription: "expired", pending_change: null });
    await expectReplayChangesNothing(t, evt, user.id);
  });
});

describe("charge.refunded", () => {
  /** Refunds at the fake (all of it unless `amount`) and returns the charge.refunded event Stripe sends. */
  const refund = (t: T, pi: string, amount?: number) => {
    t.fake.state.createRefund({ payment_intent: pi, ...(amount ? { amount: String(amount) } : {}) });
    return t.fake.event("charge.refunded", t.fake.state.chargeOf(pi));
  };

  // Issue 12 changed this: a full refund of the subscription payment now ends the plan (it kept it before).
  test("a fully refunded subscription payment is marked refunded, leaves the admin revenue and ends the plan", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true, subscriptionType: "pro" });
    const revenue = async () => (await t.call("GET", "/api/admin/stats", { token: admin.token })).body;
    const { user, id, sub } = await subscriber(t, "subscription_basic");
    expect(await revenue()).toMatchObject({ total_revenue: 11.99, completed_purchases: 1 });
    const invoice = t.fake.state.invoices.get(t.fake.sessions.get(id)!.invoice!)!;
    const pi = [...t.fake.state.invoicePayments].find(([, inv]) => inv === invoice.id)![0];

    const evt = refund(t, pi);
    expect((await t.webhook(evt)).status).toBe(200);
    expect((await first(t.db.select().from(purchases)))!.status).toBe("refunded");
    expect(await revenue()).toMatchObject({ total_revenue: 0, completed_purchases: 0 });
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null });
    expect(sub().status).toBe("canceled");
    await expectReplayChangesNothing(t, evt, user.id);
  });

  test("a partial refund leaves the purchase completed and the pack's requests", async () => {
    const t = await billingApp();
    const { user, token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly" });
    const id = await t.subscribe(token, "token_pack_10");
    const res = await t.webhook(refund(t, t.fake.sessions.get(id)!.payment_intent!, 500));
    expect(res.status).toBe(200);
    expect((await first(t.db.select().from(purchases)))!.status).toBe("completed");
    expect((await userRow(t, user.id)).extraQueries).toBe(10);
  });
});
