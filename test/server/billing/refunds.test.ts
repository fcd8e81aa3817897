import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { billingChanges, purchases, referrals, users } from "../../../src/db/schema/index.ts";
import { billingApp, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

type T = Awaited<ReturnType<typeof billingApp>>;
const userRow = async (t: T, id: number) => (await first(t.db.select().from(users).where(eq(users.id, id))))!;
const purchase = async (t: T) => (await first(t.db.select().from(purchases)))!;

/** A basic subscriber (Stripe) who bought a pack: its payment intent, ready to be refunded or disputed. */
async function packBuyer(t: T) {
  const { user, token } = await t.user();
  await t.subscribe(token, "subscription_basic");
  await t.db.delete(purchases); // only the pack's purchase matters here
  const id = await t.subscribe(token, "token_pack_10");
  return { user, token, pi: t.fake.sessions.get(id)!.payment_intent! };
}

/** A subscriber whose first payment was made with a Pro's referral code: both got +10. */
async function referredSubscriber(t: T) {
  const referrer = await t.user({ subscriptionType: "pro", billingCycle: "monthly" });
  const code = (await t.call("GET", "/api/promo/my-code", { token: referrer.token })).body.code;
  const { user, token } = await t.user();
  const id = await t.subscribe(token, "subscription_basic", { promo_code: code });
  const session = t.fake.sessions.get(id)!;
  const pi = [...t.fake.state.invoicePayments].find(([, inv]) => inv === session.invoice)![0];
  return { referrer: referrer.user, user, token, pi, subId: session.subscription as string };
}

const refundEvent = (t: T, pi: string, amount?: number, metadata?: Record<string, string>) => {
  t.fake.state.createRefund({ payment_intent: pi, ...(amount ? { amount: String(amount) } : {}), ...(metadata ? { metadata } : {}) });
  return t.fake.event("charge.refunded", t.fake.state.chargeOf(pi));
};
const disputeEvent = (t: T, type: string, dispute: any) => t.fake.event(type, dispute);

describe("full refunds", () => {
  test("of a pack takes back its unused requests, recorded with who and why", async () => {
    const t = await billingApp();
    const { user, pi } = await packBuyer(t);
    await t.db.update(users).set({ extraQueries: 6 }).where(eq(users.id, user.id)); // 4 of the pack were used
    expect((await t.webhook(refundEvent(t, pi))).status).toBe(200);
    expect((await userRow(t, user.id)).extraQueries).toBe(0);
    expect((await purchase(t)).status).toBe("refunded");
    const rows = (await t.db.select().from(billingChanges).where(eq(billingChanges.userId, user.id))).filter((c) => c.action === "refund");
    expect(rows.map((r) => r.actor)).toEqual(["stripe", "stripe"]);
    expect(rows.some((r) => r.detail.includes("6 requête(s) du pack reprise(s) sur 10"))).toBe(true);
  });

  test("of a subscription payment cancels the subscription and ends the plan, and takes the referral bonus back from both sides", async () => {
    const t = await billingApp();
    const { referrer, user, pi, subId } = await referredSubscriber(t);
    expect((await userRow(t, user.id)).extraQueries).toBe(10);
    expect((await userRow(t, referrer.id)).extraQueries).toBe(10);
    await t.db.update(users).set({ extraQueries: 3 }).where(eq(users.id, referrer.id)); // the referrer spent 7
    expect((await t.webhook(refundEvent(t, pi))).status).toBe(200);
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null, extraQueries: 0 });
    expect((await userRow(t, referrer.id)).extraQueries).toBe(0);
    expect(t.fake.state.subscriptions.get(subId)!.status).toBe("canceled");
    expect((await first(t.db.select().from(referrals)))!.revokedAt).not.toBeNull();
  });

  test("of a subscription payment keeps the plan when the operator marked the refund unisson_keep_plan", async () => {
    const t = await billingApp();
    const { user, pi, subId } = await referredSubscriber(t);
    expect((await t.webhook(refundEvent(t, pi, undefined, { unisson_keep_plan: "true" }))).status).toBe(200);
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic", stripeSubscriptionId: subId });
    expect((await purchase(t)).status).toBe("refunded");
  });

  test("a partial refund changes nothing", async () => {
    const t = await billingApp();
    const { user, pi } = await referredSubscriber(t);
    const before = await userRow(t, user.id);
    expect((await t.webhook(refundEvent(t, pi, 500))).status).toBe(200);
    expect(await userRow(t, user.id)).toEqual(before);
    expect((await purchase(t)).status).toBe("completed");
  });
});

describe("disputes", () => {
  test("of a pack: opened holds its requests, won gives them back", async () => {
    const t = await billingApp();
    const { user, pi } = await packBuyer(t);
    const dispute = t.fake.state.createDispute(pi);
    expect((await t.webhook(disputeEvent(t, "charge.dispute.created", dispute))).status).toBe(200);
    expect((await userRow(t, user.id)).extraQueries).toBe(0);
    expect(await purchase(t)).toMatchObject({ status: "disputed", heldRequests: 10 });
    dispute.status = "won";
    const closed = disputeEvent(t, "charge.dispute.closed", dispute);
    expect((await t.webhook(closed)).status).toBe(200);
    expect((await userRow(t, user.id)).extraQueries).toBe(10);
    expect(await purchase(t)).toMatchObject({ status: "completed", heldRequests: 0 });
    // Stripe's copy of the same news again: nothing more is given.
    await t.webhook(disputeEvent(t, "charge.dispute.updated", dispute));
    expect((await userRow(t, user.id)).extraQueries).toBe(10);
  });

  test("of a pack: lost keeps its requests taken and marks the purchase refunded", async () => {
    const t = await billingApp();
    const { user, pi } = await packBuyer(t);
    const dispute = t.fake.state.createDispute(pi);
    await t.webhook(disputeEvent(t, "charge.dispute.created", dispute));
    dispute.status = "lost";
    expect((await t.webhook(disputeEvent(t, "charge.dispute.closed", dispute))).status).toBe(200);
    expect((await userRow(t, user.id)).extraQueries).toBe(0);
    expect(await purchase(t)).toMatchObject({ status: "refunded", heldRequests: 0 });
  });

  test("closed as lost without the opening event (missed) still takes the pack back", async () => {
    const t = await billingApp();
    const { user, pi } = await packBuyer(t);
    const dispute = t.fake.state.createDispute(pi, "lost");
    await t.webhook(disputeEvent(t, "charge.dispute.closed", dispute));
    expect((await userRow(t, user.id)).extraQueries).toBe(0);
    expect((await purchase(t)).status).toBe("refunded");
  });

  test("of a subscription payment: opened freezes the period's remaining requests, won gives them back", async () => {
    const t = await billingApp();
    const { user, pi } = await referredSubscriber(t);
    const before = (await userRow(t, user.id)).planQueries;
    expect(before).toBeGreaterThan(0);
    const dispute = t.fake.state.createDispute(pi);
    await t.webhook(disputeEvent(t, "charge.dispute.created", dispute));
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic", planQueries: 0, extraQueries: 10 });
    expect(await purchase(t)).toMatchObject({ status: "disputed", heldRequests: before });
    dispute.status = "won";
    await t.webhook(disputeEvent(t, "charge.dispute.closed", dispute));
    expect((await userRow(t, user.id)).planQueries).toBe(before);
    expect(await purchase(t)).toMatchObject({ status: "completed", heldRequests: 0 });
  });

  test("of a subscription payment: requests given back never exceed the plan's allowance (a renewal came meanwhile)", async () => {
    const t = await billingApp();
    const { user, pi } = await referredSubscriber(t);
    const allowance = (await userRow(t, user.id)).planQueries;
    const dispute = t.fake.state.createDispute(pi);
    await t.webhook(disputeEvent(t, "charge.dispute.created", dispute));
    // A new period: its allowance is granted in full (written as the renewal would).
    await t.db
      .update(users)
      .set({ planQueries: allowance - 3 })
      .where(eq(users.id, user.id));
    dispute.status = "won";
    await t.webhook(disputeEvent(t, "charge.dispute.closed", dispute));
    expect((await userRow(t, user.id)).planQueries).toBe(allowance);
  });

  test("of a subscription payment: won restores the purchase, the plan never stopped", async () => {
    const t = await billingApp();
    const { user, pi, subId } = await referredSubscriber(t);
    const dispute = t.fake.state.createDispute(pi);
    await t.webhook(disputeEvent(t, "charge.dispute.created", dispute));
    dispute.status = "won";
    await t.webhook(disputeEvent(t, "charge.dispute.closed", dispute));
    expect((await purchase(t)).status).toBe("completed");
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic", stripeSubscriptionId: subId, extraQueries: 10 });
    expect(t.fake.state.subscriptions.get(subId)!.status).toBe("active");
  });

  test("of a subscription payment: opened keeps the plan (recorded), lost ends it and cancels the subscription", async () => {
    const t = await billingApp();
    const { user, pi, subId } = await referredSubscriber(t);
    const dispute = t.fake.state.createDispute(pi);
    await t.webhook(disputeEvent(t, "charge.dispute.created", dispute));
    expect((await userRow(t, user.id)).subscriptionType).toBe("basic");
    expect((await purchase(t)).status).toBe("disputed");
    dispute.status = "lost";
    await t.webhook(disputeEvent(t, "charge.dispute.closed", dispute));
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null });
    expect(t.fake.state.subscriptions.get(subId)!.status).toBe("canceled");
    const history = (await t.call("GET", `/api/admin/users/${user.id}`, { token: (await t.user({ isAdmin: true })).token })).body.billing_history;
    expect(history.filter((h: any) => h.action === "dispute").length).toBeGreaterThanOrEqual(2);
  });
});
