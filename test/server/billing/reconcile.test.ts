import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reconcile } from "../../../src/billing/reconcile.service.ts";
import { billingChanges, purchases, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { billingApp, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

type T = Awaited<ReturnType<typeof billingApp>>;
const userRow = async (t: T, id: number) => (await first(t.db.select().from(users).where(eq(users.id, id))))!;

async function subscriber(t: T, product = "subscription_basic") {
  const { user, token } = await t.user();
  const id = await t.subscribe(token, product);
  const subId = t.fake.sessions.get(id)!.subscription!;
  return { user, token, subId, sub: () => t.fake.state.subscriptions.get(subId)! };
}

/** The dashboard changes the price behind our back: no event reaches us. */
function switchToPro(t: T, sub: any) {
  if (!t.fake.state.products.has("unisson_pro")) t.fake.state.createProduct({ id: "unisson_pro", name: "Pro" });
  sub.items.data[0].price = t.fake.state.price({ currency: "eur", product: "unisson_pro", unit_amount: "2990", recurring: { interval: "month" } });
}

describe("billing reconciliation", () => {
  test("finds and fixes a subscription changed in the Stripe dashboard, and records it", async () => {
    const t = await billingApp();
    const { user, sub } = await subscriber(t);
    switchToPro(t, sub());
    const report = await reconcile(t.deps);
    expect(report.differences).toHaveLength(1);
    expect(report.differences[0]).toMatchObject({ kind: "forfait différent", user_id: user.id, stripe_ref: sub().id, fixed: true });
    expect((await userRow(t, user.id)).subscriptionType).toBe("pro");
    expect((await t.db.select().from(billingChanges).where(eq(billingChanges.userId, user.id))).some((c) => c.actor === "reconcile")).toBe(true);
    // A second run finds nothing left.
    expect((await reconcile(t.deps)).differences).toEqual([]);
  });

  test("finds and fixes a subscription cancelled in the dashboard", async () => {
    const t = await billingApp();
    const { user, sub } = await subscriber(t, "subscription_pro");
    t.fake.state.cancelSubscription(sub().id);
    const report = await reconcile(t.deps);
    expect(report.differences.map((d) => d.kind)).toEqual(["abonnement terminé"]);
    expect(await userRow(t, user.id)).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null });
  });

  test("a missed invoice.paid: the renewal is credited once and the payment recorded", async () => {
    const t = await billingApp();
    const { user, subId } = await subscriber(t);
    await t.db.update(users).set({ planQueries: 1 }).where(eq(users.id, user.id));
    t.clock.advance(31 * 86_400_000);
    const invoice = t.fake.state.renew(subId); // paid at Stripe, the webhook never arrived
    const report = await reconcile(t.deps);
    expect(report.differences.map((d) => d.kind)).toEqual(["forfait différent"]);
    expect((await userRow(t, user.id)).planQueries).toBe(10);
    expect(await t.db.select().from(purchases).where(eq(purchases.invoiceId, invoice.id))).toHaveLength(1);
    expect((await reconcile(t.deps)).differences).toEqual([]);
  });

  test("--dry-run reports the same differences and changes nothing", async () => {
    const t = await billingApp();
    const { user, sub } = await subscriber(t);
    switchToPro(t, sub());
    const before = await userRow(t, user.id);
    const report = await reconcile(t.deps, { dryRun: true });
    expect(report.dry_run).toBe(true);
    expect(report.differences.map((d) => [d.kind, d.fixed])).toEqual([["forfait différent", false]]);
    expect(report.differences[0]!.detail).toContain("pro");
    expect(await userRow(t, user.id)).toEqual(before);
    expect(await t.db.select().from(billingChanges).where(eq(billingChanges.actor, "reconcile"))).toEqual([]);
  });

  test("reads Stripe's lists page by page (starting_after) and a duplicate found there is cancelled and refunded", async () => {
    const t = await billingApp();
    const subs = [await subscriber(t), await subscriber(t), await subscriber(t)];
    const { token, user } = subs[0]!;
    // A second subscription for the first account, paid without us knowing.
    const extra = await t.call("POST", "/api/stripe/create-payment-intent", {
      token,
      json: { product_type: "subscription_pro", is_annual: false, origin_url: "http://localhost:3000" },
    });
    expect(extra.status).toBe(409); // the product itself refuses a second one...
    const session = t.fake.state.createSession({
      mode: "subscription",
      customer: (await userRow(t, user.id)).stripeCustomerId,
      success_url: "x",
      line_items: [{ price_data: { currency: "eur", product: "unisson_basic", unit_amount: "1199", recurring: { interval: "month" } } }],
      subscription_data: { metadata: { user_id: String(user.id) } },
    });
    const dup = t.fake.state.pay(session.id).subscription; // ...but Stripe's dashboard does not
    const report = await reconcile(t.deps, { pageSize: 2 });
    expect(report.subscriptions_checked).toBe(4);
    const pages = t.fake.requests.filter((r) => r.method === "GET" && r.path === "/v1/subscriptions");
    expect(pages.map((r) => r.query.has("starting_after"))).toEqual([false, true]);
    expect(report.differences.map((d) => [d.kind, d.stripe_ref])).toEqual([["abonnement en double", dup]]);
    expect(t.fake.state.subscriptions.get(dup)!.status).toBe("canceled");
    expect([...t.fake.state.refunds.values()].map((r) => r.amount)).toEqual([1199]);
    expect((await userRow(t, user.id)).stripeSubscriptionId).toBe(subs[0]!.subId);
  });

  test("a live subscription whose account is gone is cancelled", async () => {
    const t = await billingApp();
    const { user, sub } = await subscriber(t);
    await t.db.delete(users).where(eq(users.id, user.id)); // deleted before issue 12, behind Stripe's back
    const report = await reconcile(t.deps);
    expect(report.differences.map((d) => d.kind)).toEqual(["abonnement orphelin"]);
    expect(sub().status).toBe("canceled");
  });

  test("without a Stripe key it refuses with a French message", async () => {
    const t = await createTestApp();
    await expect(reconcile(t.deps)).rejects.toThrow("Stripe n'est pas configuré");
  });
});
