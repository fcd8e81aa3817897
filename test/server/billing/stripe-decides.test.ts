import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { users } from "../../../src/db/schema/index.ts";
import { PLAN_ALLOWANCE } from "../../../src/contracts/pricing.ts";
import { publicInvoice, publicSession } from "../../fakes/stripe/state.ts";
import { billingApp, sessionId, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

type T = Awaited<ReturnType<typeof billingApp>>;
type Evt = ReturnType<T["fake"]["event"]>;
const userRow = async (t: T, id: number) => (await first(t.db.select().from(users).where(eq(users.id, id))))!;

/**
 * A customer's life at Stripe, op by op; each op changes the fake's objects
 * and returns the events Stripe would send about it (with the objects as
 * they were then: a late event carries a stale copy).
 */
type Op = "renew" | "upgrade" | "cancel";

async function startCustomer(t: T, product: string) {
  const { user, token } = await t.user();
  const res = await t.checkout(token, product);
  const id = sessionId(res.body.checkout_url);
  const session = t.fake.state.pay(id);
  const subId = session.subscription as string;
  const snap = (o: unknown) => structuredClone(o);
  const sub = () => t.fake.state.subscriptions.get(subId)!;
  const events: Evt[] = [
    t.fake.event("checkout.session.completed", publicSession(snap(session))),
    t.fake.event("customer.subscription.created", snap(sub())),
    t.fake.event("invoice.paid", publicInvoice(snap(t.fake.state.invoices.get(sub().latest_invoice)))),
  ];
  function apply(op: Op): Evt[] {
    if (op === "renew") {
      t.clock.advance(31 * 86_400_000);
      const inv = t.fake.state.renew(subId);
      return [t.fake.event("invoice.paid", publicInvoice(snap(inv))), t.fake.event("customer.subscription.updated", snap(sub()))];
    }
    if (op === "upgrade") {
      if (!t.fake.state.products.has("unisson_pro")) t.fake.state.createProduct({ id: "unisson_pro", name: "Pro" });
      const item = sub().items.data[0];
      const interval = item.price.recurring.interval;
      t.fake.state.updateSubscription(subId, {
        items: [
          {
            id: item.id,
            price_data: { currency: "eur", product: "unisson_pro", unit_amount: interval === "year" ? "29900" : "2990", recurring: { interval } },
          },
        ],
        proration_behavior: "always_invoice",
        payment_behavior: "pending_if_incomplete",
      });
      const inv = t.fake.state.invoices.get(sub().latest_invoice);
      return [t.fake.event("customer.subscription.updated", snap(sub())), t.fake.event("invoice.paid", publicInvoice(snap(inv)))];
    }
    t.fake.state.cancelSubscription(subId);
    return [t.fake.event("customer.subscription.deleted", snap(sub()))];
  }
  return { user, token, subId, sub, events, apply };
}

/** What Stripe's final objects say the account must be. */
function stripeSays(sub: any) {
  if (sub.status === "canceled") return { subscriptionType: "expired", billingCycle: null, stripeSubscriptionId: null, planQueries: 0 };
  const item = sub.items.data[0];
  const plan = item.price.product === "unisson_pro" ? "pro" : "basic";
  return {
    subscriptionType: plan,
    billingCycle: item.price.recurring.interval === "year" ? "annual" : "monthly",
    stripeSubscriptionId: sub.id,
    periodEndsAt: new Date(item.current_period_end * 1000),
  };
}

async function accountState(t: T, id: number) {
  const u = await userRow(t, id);
  return {
    subscriptionType: u.subscriptionType,
    billingCycle: u.billingCycle,
    stripeSubscriptionId: u.stripeSubscriptionId,
    periodEndsAt: u.periodEndsAt,
    planQueries: u.planQueries,
    extraQueries: u.extraQueries,
  };
}

describe("Stripe decides: order and duplicates of events do not matter", () => {
  test("customer.subscription.deleted before checkout.session.completed: the account ends expired, not Pro with a dead subscription", async () => {
    const t = await billingApp();
    const c = await startCustomer(t, "subscription_pro");
    const late = c.apply("cancel");
    for (const evt of [...late, c.events[0]!]) expect((await t.webhook(evt)).status).toBe(200);
    expect(await accountState(t, c.user.id)).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null, planQueries: 0 });
  });

  test("every pair of a subscription's events, delivered in reverse order, ends in the same state as in order", async () => {
    const life = async (t: T) => {
      const c = await startCustomer(t, "subscription_basic");
      const all = [...c.events, ...c.apply("renew"), ...c.apply("upgrade"), ...c.apply("renew"), ...c.apply("cancel")];
      return { c, all };
    };
    const probe = await billingApp();
    const n = (await life(probe)).all.length;
    stopFakes();
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const states = [];
        for (const reverse of [false, true]) {
          const t = await billingApp();
          const { c, all } = await life(t);
          const pair = reverse ? [all[j]!, all[i]!] : [all[i]!, all[j]!];
          for (const evt of pair) expect((await t.webhook(evt)).status).toBe(200);
          const { periodEndsAt, ...rest } = await accountState(t, c.user.id);
          states.push({ ...rest, period: periodEndsAt?.toISOString() ?? null });
          stopFakes();
        }
        expect(states[1]).toEqual(states[0]!);
      }
    }
  }, 120_000);

  test("a random life at Stripe, its events reordered, delayed and duplicated, always ends as Stripe's final objects say", async () => {
    const ops = fc.array(fc.constantFrom<Op>("renew", "upgrade", "renew", "cancel"), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("subscription_basic", "subscription_basic_annual", "subscription_pro"),
        ops,
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        fc.array(fc.record({ at: fc.nat(), same: fc.boolean() }), { maxLength: 4 }),
        async (product, lifeOps, keys, dups) => {
          const t = await billingApp();
          try {
            const c = await startCustomer(t, product);
            // Each event gets a delivery slot at or after the op that made it; within a slot, the order is random.
            const pending: Array<{ evt: Evt; slot: number; key: number }> = [];
            const push = (list: Evt[], op: number) =>
              list.forEach(
                (evt) =>
                  void pending.push({
                    evt,
                    slot: op + (keys[pending.length % keys.length]! % (lifeOps.length + 1 - op)),
                    key: keys[(pending.length * 7) % keys.length]!,
                  }),
              );
            push(c.events, 0);
            const delivered: Evt[] = [];
            const deliver = async (slot: number) => {
              const now = pending.filter((p) => p.slot === slot).sort((a, b) => a.key - b.key);
              for (const p of now) {
                expect((await t.webhook(p.evt)).status).toBe(200);
                delivered.push(p.evt);
              }
            };
            let ended = false;
            for (let i = 0; i < lifeOps.length; i++) {
              await deliver(i);
              const op = lifeOps[i]!;
              const live = !ended;
              const basic = c.sub().items.data[0].price.product === "unisson_basic";
              if (live && (op !== "upgrade" || basic)) push(c.apply(op), i + 1);
              if (op === "cancel") ended = true;
            }
            for (let s = lifeOps.length; s <= lifeOps.length + 1; s++) await deliver(s);
            // Duplicates: the same event again (idempotency), or the same object under a new event id (Stripe decides).
            for (const d of dups) {
              if (!delivered.length) break;
              const evt = delivered[d.at % delivered.length]!;
              expect((await t.webhook(d.same ? evt : t.fake.event(evt.type, evt.data.object))).status).toBe(200);
            }
            const expected = stripeSays(c.sub());
            const actual = await accountState(t, c.user.id);
            expect(actual).toMatchObject(expected);
            if (expected.subscriptionType !== "expired") {
              expect(actual.planQueries).toBeGreaterThanOrEqual(PLAN_ALLOWANCE[expected.subscriptionType as "basic" | "pro"]);
            }
          } finally {
            stopFakes();
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 180_000);
});
