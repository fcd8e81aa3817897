import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { billingChanges, purchases, users } from "../../../src/db/schema/index.ts";
import { billingApp, sessionId, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

type T = Awaited<ReturnType<typeof billingApp>>;
const userRow = async (t: T, id: number) => await first(t.db.select().from(users).where(eq(users.id, id)));
const changes = async (t: T, userId: number) => await t.db.select().from(billingChanges).where(eq(billingChanges.userId, userId));

async function subscriber(t: T, product = "subscription_basic") {
  const { user, token } = await t.user();
  const id = await t.subscribe(token, product);
  const subId = t.fake.sessions.get(id)!.subscription!;
  return { user, token, id, subId, sub: () => t.fake.state.subscriptions.get(subId)! };
}

describe("one subscription per customer", () => {
  test("opening a second subscription checkout expires the first one at Stripe", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const first = sessionId((await t.checkout(token, "subscription_basic")).body.checkout_url);
    const second = sessionId((await t.checkout(token, "subscription_pro")).body.checkout_url);
    expect(t.fake.sessions.get(first)!.status).toBe("expired");
    expect(t.fake.sessions.get(second)!.status).toBe("open");
  });

  test("two subscription checkouts both paid: the first is kept, the second cancelled and refunded, logged and recorded for the admin", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user, token } = await t.user();
    const a = sessionId((await t.checkout(token, "subscription_basic")).body.checkout_url);
    t.fake.state.pay(a); // paid in one tab, the webhook not arrived yet
    const b = sessionId((await t.checkout(token, "subscription_pro")).body.checkout_url);
    t.fake.state.pay(b);
    for (const id of [a, b]) expect((await t.webhook(t.fake.event("checkout.session.completed", t.fake.sessions.get(id)))).status).toBe(200);

    const subA = t.fake.sessions.get(a)!.subscription!;
    const subB = t.fake.sessions.get(b)!.subscription!;
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic", stripeSubscriptionId: subA, planQueries: 10 });
    expect(t.fake.state.subscriptions.get(subA)!.status).toBe("active");
    expect(t.fake.state.subscriptions.get(subB)!.status).toBe("canceled");
    const refund = [...t.fake.state.refunds.values()];
    expect(refund.map((r) => r.amount)).toEqual([2990]);
    expect((await t.db.select().from(purchases)).map((p) => [p.amountCents, p.status]).sort()).toEqual([
      [1199, "completed"],
      [2990, "refunded"],
    ]);
    expect(t.log.lines.some((l) => l.includes("duplicate subscription cancelled and refunded"))).toBe(true);
    const view = await t.call("GET", `/api/admin/users/${user.id}`, { token: admin.token });
    expect(view.status).toBe(200);
    expect(view.body.billing_history.some((h: any) => h.action === "duplicate_subscription" && h.stripe_ref === subB && h.detail.includes("remboursé"))).toBe(
      true,
    );

    // Its later events change nothing: the kept subscription drives the plan.
    expect(await t.webhook(t.fake.event("customer.subscription.deleted", t.fake.state.subscriptions.get(subB)))).toMatchObject({ status: 200 });
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic", stripeSubscriptionId: subA });
  });
});

describe("account deletion cancels the Stripe subscription first", () => {
  test("admin deletion: the subscription is cancelled at Stripe, and a later invoice credits nobody", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user, subId, sub } = await subscriber(t);
    const res = await t.call("DELETE", `/api/admin/users/${user.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(sub().status).toBe("canceled");
    expect(t.fake.requests.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${subId}`)).toBe(true);
    expect(await userRow(t, user.id)).toBeUndefined();
    const before = (await t.db.select().from(purchases)).length;
    // Even if Stripe had sent a renewal, nobody is credited and no purchase appears.
    sub().status = "active";
    const late = t.fake.state.renew(subId);
    expect((await t.webhook(t.fake.event("invoice.paid", late))).status).toBe(200);
    expect((await t.db.select().from(purchases)).length).toBe(before);
    expect((await t.db.select().from(billingChanges)).some((c) => c.action === "deletion" && c.stripeRef === subId)).toBe(true);
  });

  test("Stripe refusing the cancellation refuses the deletion with a French message, and nothing is changed", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user, sub } = await subscriber(t);
    t.fake.failNext("/v1/subscriptions/");
    const res = await t.call("DELETE", `/api/admin/users/${user.id}`, { token: admin.token });
    expect(res.status).toBe(502);
    expect(res.body.detail).toContain("la suppression est refusée");
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic" });
    expect(sub().status).toBe("active");
  });

  test("a checkout paid after its account was deleted: the money is recorded and the new subscription cancelled", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user, token } = await t.user();
    const id = sessionId((await t.checkout(token, "subscription_basic")).body.checkout_url);
    expect((await t.call("DELETE", `/api/admin/users/${user.id}`, { token: admin.token })).status).toBe(200);
    const session = t.fake.state.pay(id);
    expect((await t.webhook(t.fake.event("checkout.session.completed", session))).status).toBe(200);
    expect(t.fake.state.subscriptions.get(session.subscription)!.status).toBe("canceled");
    expect((await t.db.select().from(purchases)).map((p) => [p.userId, p.amountCents])).toEqual([[null, 1199]]);
  });

  test("an account without a subscription is deleted with no Stripe call", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user } = await t.user({ subscriptionType: "basic" });
    const before = t.fake.requests.length;
    expect((await t.call("DELETE", `/api/admin/users/${user.id}`, { token: admin.token })).status).toBe(200);
    expect(t.fake.requests.length).toBe(before);
  });
});

/** The admin edit form sends every field. */
const form = (u: { firstName: string; lastName: string; email: string }, patch: Record<string, unknown>) => ({
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  ...patch,
});

describe("admin plan change", () => {
  test("of a Stripe subscriber is refused with a message saying Stripe drives it; nothing changes", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user } = await subscriber(t);
    const before = (await userRow(t, user.id))!;
    const res = await t.call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: form(before, { subscription_type: "pro" }) });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("abonnement Stripe");
    expect(await userRow(t, user.id)).toEqual(before);
  });

  test("to expired of a Stripe subscriber goes through Stripe: cancelled at once, then expired, recorded", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user, sub } = await subscriber(t);
    const res = await t.call("PUT", `/api/admin/users/${user.id}`, {
      token: admin.token,
      json: form((await userRow(t, user.id))!, { subscription_type: "expired" }),
    });
    expect(res.status).toBe(200);
    expect(sub().status).toBe("canceled");
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null });
    expect((await changes(t, user.id)).some((c) => c.actor === `admin:${admin.user.id}` && c.detail.includes("résilié immédiatement"))).toBe(true);
  });

  test("to expired of a Stripe subscriber, Stripe refusing: 502 and nothing changes", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user, sub } = await subscriber(t);
    const before = (await userRow(t, user.id))!;
    t.fake.failNext("/v1/subscriptions/");
    const res = await t.call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: form(before, { subscription_type: "expired" }) });
    expect(res.status).toBe(502);
    expect(await userRow(t, user.id)).toEqual(before);
    expect(sub().status).toBe("active");
  });

  test("of an account without a subscription sets the plan and records who did it", async () => {
    const t = await billingApp();
    const admin = await t.user({ isAdmin: true });
    const { user } = await t.user();
    const res = await t.call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: form(user, { subscription_type: "pro" }) });
    expect(res.status).toBe(200);
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "pro", planQueries: 30 });
    expect((await changes(t, user.id)).map((c) => [c.actor, c.action])).toEqual([[`admin:${admin.user.id}`, "plan"]]);
  });
});

describe("no free upgrade", () => {
  test("an upgrade asks Stripe for a pending update, and grants Pro with its requests once the invoice is paid", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t);
    await t.db.update(users).set({ planQueries: 4 }).where(eq(users.id, user.id));
    const res = await t.call("POST", "/api/subscription/request-change", { token, json: { target_subscription_type: "pro", target_billing_cycle: "monthly" } });
    expect(res.status).toBe(200);
    const call = t.fake.requests.find((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subId}`)!;
    expect(call.body).toMatchObject({ payment_behavior: "pending_if_incomplete", proration_behavior: "always_invoice" });
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "pro", planQueries: 34 });
    // The paid proration invoice is recorded once, and its webhook adds nothing more.
    const inv = t.fake.state.invoices.get(t.fake.state.subscriptions.get(subId)!.latest_invoice)!;
    await t.webhook(t.fake.event("invoice.paid", inv));
    expect((await userRow(t, user.id))!.planQueries).toBe(34);
    expect(await t.db.select().from(purchases).where(eq(purchases.invoiceId, inv.id))).toHaveLength(1);
  });

  test("an upgrade with a declined card leaves the plan unchanged and says so in French", async () => {
    const t = await billingApp();
    const { user, token, sub } = await subscriber(t);
    t.fake.state.declining.add(sub().customer);
    const before = (await userRow(t, user.id))!;
    const res = await t.call("POST", "/api/subscription/request-change", { token, json: { target_subscription_type: "pro", target_billing_cycle: "monthly" } });
    expect(res.status).toBe(402);
    expect(res.body.detail).toBe("Le paiement de la mise à niveau a été refusé : votre forfait reste inchangé. Vérifiez votre moyen de paiement et réessayez.");
    expect(await userRow(t, user.id)).toEqual(before);
    expect(sub().items.data[0].price.unit_amount).toBe(1199);
    // Stripe's events about the unpaid upgrade do not grant it either.
    await t.webhook(t.fake.event("customer.subscription.updated", sub()));
    await t.webhook(t.fake.event("invoice.payment_failed", t.fake.state.invoices.get(sub().latest_invoice)));
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "basic", planQueries: 10 });
  });

  test("a card error answered by Stripe itself is the same French refusal", async () => {
    const t = await billingApp();
    const { user, token, subId } = await subscriber(t);
    t.fake.failNext(`/v1/subscriptions/${subId}`, 402, "POST");
    const res = await t.call("POST", "/api/subscription/request-change", { token, json: { target_subscription_type: "pro", target_billing_cycle: "monthly" } });
    expect(res.status).toBe(402);
    expect(res.body.detail).toContain("votre forfait reste inchangé");
    expect((await userRow(t, user.id))!.subscriptionType).toBe("basic");
  });
});
