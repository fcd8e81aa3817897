import type { Db } from "../../../src/db/client.ts";
import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createApp } from "../../../src/app.ts";
import { fulfilments, purchases, stripeEvents, users } from "../../../src/db/schema/index.ts";
import { billingApp, sessionId, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

const userRow = async (db: Db, id: number) => (await first(db.select().from(users).where(eq(users.id, id))))!;

/** A trial user with an open Checkout Session for `product`, paid at the fake (no webhook yet). */
async function paidSession(t: Awaited<ReturnType<typeof billingApp>>, product = "subscription_basic") {
  const { user, token } = await t.user();
  const res = await t.checkout(token, product);
  const id = sessionId(res.body.checkout_url);
  const session = t.fake.state.pay(id);
  const { _price, _subscriptionMetadata, ...json } = session;
  return { user, token, id, session: json };
}

describe("POST /api/stripe/webhook", () => {
  test("a bad signature is refused with 400 and changes nothing", async () => {
    const t = await billingApp();
    const { user, session } = await paidSession(t);
    const res = await t.webhook(t.fake.event("checkout.session.completed", session), "t=1,v1=deadbeef");
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Signature du webhook Stripe invalide.");
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("trial");
  });

  test("an event signed with another secret is refused", async () => {
    const t = await billingApp();
    const { session } = await paidSession(t);
    const evt = t.fake.event("checkout.session.completed", session);
    const other = await t.fake.sign(evt, "whsec_other");
    const res = await t.webhook(evt, other.signature);
    expect(res.status).toBe(400);
  });

  test("checkout.session.completed credits the plan", async () => {
    const t = await billingApp();
    const { user, session } = await paidSession(t);
    const res = await t.webhook(t.fake.event("checkout.session.completed", session));
    expect(res.status).toBe(200);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("basic");
    expect((await userRow(t.db, user.id)).planQueries).toBe(10);
  });

  test("a replayed event is answered 200 and handled once", async () => {
    const t = await billingApp();
    const { user, token } = await t.user({ subscriptionType: "pro", billingCycle: "monthly", planQueries: 4 });
    const res = await t.checkout(token, "token_pack_10");
    const id = sessionId(res.body.checkout_url);
    const { _price, _subscriptionMetadata, ...session } = t.fake.state.pay(id);
    const evt = t.fake.event("checkout.session.completed", session);
    await t.webhook(evt);
    const replay = await t.webhook(evt);
    expect(replay.status).toBe(200);
    expect(replay.body.duplicate).toBe(true);
    expect((await userRow(t.db, user.id)).extraQueries).toBe(10);
    expect((await t.db.select().from(stripeEvents)).length).toBe(1);
  });

  test("the webhook and the status poll racing on one session credit it once", async () => {
    const t = await billingApp();
    const { user, token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly" });
    const res = await t.checkout(token, "token_pack_10");
    const id = sessionId(res.body.checkout_url);
    const { _price, _subscriptionMetadata, ...session } = t.fake.state.pay(id);
    await Promise.all([
      t.webhook(t.fake.event("checkout.session.completed", session)),
      t.webhook(t.fake.event("checkout.session.completed", session)),
      t.call("GET", `/api/stripe/checkout-status/${id}`, { token }),
      t.call("GET", `/api/stripe/checkout-status/${id}`, { token }),
    ]);
    expect((await userRow(t.db, user.id)).extraQueries).toBe(10);
    expect((await t.db.select().from(fulfilments)).length).toBe(1);
    expect((await t.db.select().from(purchases)).length).toBe(1);
  });

  test("invoice.paid of the first invoice before checkout.session.completed credits once", async () => {
    const t = await billingApp();
    const { user, session } = await paidSession(t, "subscription_pro");
    const invoice = t.fake.state.invoices.get(session.invoice)!;
    expect((await t.webhook(t.fake.event("invoice.paid", invoice))).status).toBe(200);
    await t.webhook(t.fake.event("checkout.session.completed", session));
    const row = await userRow(t.db, user.id);
    expect(row.subscriptionType).toBe("pro");
    expect(row.planQueries).toBe(30);
    expect((await t.db.select().from(purchases)).map((p: any) => p.amountCents)).toEqual([2990]);
  });

  test("a renewal invoice resets the monthly allowance once per invoice, keeping extra requests", async () => {
    const t = await billingApp();
    const { user, token } = await t.user();
    const id = await t.subscribe(token, "subscription_basic");
    await t.db.update(users).set({ planQueries: 1, extraQueries: 7 }).where(eq(users.id, user.id));
    const subId = t.fake.sessions.get(id)!.subscription!;
    t.clock.advance(31 * 86_400_000);
    const invoice = t.fake.state.renew(subId);
    await t.webhook(t.fake.event("invoice.paid", invoice));
    await t.db.update(users).set({ planQueries: 2 }).where(eq(users.id, user.id));
    await t.webhook(t.fake.event("invoice.paid", invoice)); // same invoice, another event id
    const row = await userRow(t.db, user.id);
    expect(row.planQueries).toBe(2);
    expect(row.extraQueries).toBe(7);
    expect((await t.db.select().from(purchases)).length).toBe(2);
  });

  test("customer.subscription.deleted expires the account and keeps it", async () => {
    const t = await billingApp();
    const { user, token } = await t.user();
    const id = await t.subscribe(token, "subscription_basic");
    const sub = t.fake.state.cancelSubscription(t.fake.sessions.get(id)!.subscription!);
    await t.webhook(t.fake.event("customer.subscription.deleted", sub));
    const row = await userRow(t.db, user.id);
    expect(row.subscriptionType).toBe("expired");
    expect(row.stripeSubscriptionId).toBeNull();
  });

  test("charge.refunded marks the pack purchase refunded", async () => {
    const t = await billingApp();
    const { token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly" });
    const id = await t.subscribe(token, "token_pack_10");
    const pi = t.fake.sessions.get(id)!.payment_intent!;
    t.fake.state.createRefund({ payment_intent: pi });
    await t.webhook(t.fake.event("charge.refunded", t.fake.state.chargeOf(pi)));
    expect((await first(t.db.select().from(purchases).where(eq(purchases.checkoutSessionId, id))))!.status).toBe("refunded");
  });

  test("the hosted page's Payer button delivers the signed webhook to a running server", async () => {
    const t = await billingApp();
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: createApp(t.deps).fetch });
    try {
      t.fake.setWebhookUrl(`http://127.0.0.1:${server.port}/api/stripe/webhook`);
      const { user, token } = await t.user();
      const res = await t.checkout(token, "subscription_basic");
      const page = await fetch(res.body.checkout_url);
      expect(await page.text()).toContain("Payer");
      const paid = await fetch(`${res.body.checkout_url}/pay`, { method: "POST", redirect: "manual" });
      expect(paid.headers.get("location")).toBe(`http://localhost:3000/?session_id=${sessionId(res.body.checkout_url)}`);
      expect((await userRow(t.db, user.id)).subscriptionType).toBe("basic");
    } finally {
      server.stop(true);
    }
  });
});
