import type { Db } from "../../../src/db/client.ts";
import { first } from "../../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { purchases, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { billingApp, ORIGIN, sessionId, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

const userRow = async (db: Db, id: number) => (await first(db.select().from(users).where(eq(users.id, id))))!;

describe("POST /api/stripe/create-payment-intent", () => {
  test("without a Stripe key it answers 402 with the spec's message", async () => {
    const { call, db, clock } = await createTestApp();
    const { token } = await makeUser(db, clock.now());
    const res = await call("POST", "/api/stripe/create-payment-intent", {
      token,
      json: { product_type: "subscription_basic", is_annual: false, origin_url: ORIGIN },
    });
    expect(res.status).toBe(402);
    expect(res.body.detail).toBe("Problème de configuration de paiement. Contactez le support.");
  });

  test("without a session it answers 401", async () => {
    const t = await billingApp();
    const res = await t.call("POST", "/api/stripe/create-payment-intent", {
      json: { product_type: "subscription_basic", is_annual: false, origin_url: ORIGIN },
    });
    expect(res.status).toBe(401);
  });

  test("an origin_url of another site is refused with 400 (no open redirect)", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "subscription_basic", { origin_url: "https://evil.example" });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("L'adresse de retour doit être celle de Unisson.");
    expect(t.fake.sessions.size).toBe(0);
  });

  test("an unknown product is refused with a French 400", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "subscription_gold");
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Offre inconnue.");
  });

  test("a plan opens a subscription Checkout Session returning to /?session_id=", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "subscription_pro");
    expect(res.status).toBe(200);
    const s = t.fake.sessions.get(sessionId(res.body.checkout_url))!;
    expect(res.body.checkout_url).toStartWith(`${t.fake.url}/checkout/cs_`);
    expect(s.mode).toBe("subscription");
    expect(s.amount_total).toBe(2990);
    expect(s.success_url).toBe(`${ORIGIN}/?session_id={CHECKOUT_SESSION_ID}`);
  });

  test("is_annual turns a monthly plan into its annual offer", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "subscription_basic", { is_annual: true });
    const s = t.fake.sessions.get(sessionId(res.body.checkout_url))!;
    expect(s.amount_total).toBe(11900);
    expect(s._price.recurring.interval).toBe("year");
  });

  test("a subscriber asking for a new subscription gets 409 pointing to the change-plan flow", async () => {
    const t = await billingApp();
    const { token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly", stripeSubscriptionId: "sub_existing" });
    const res = await t.checkout(token, "subscription_pro");
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("Changer de forfait");
  });

  test("the pack is refused to a trial user", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "token_pack_10");
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("Le pack de requêtes est réservé aux abonnés Basic et Pro.");
  });

  test("the pack is a one-off payment for a basic user, adding 10 extra requests once paid", async () => {
    const t = await billingApp();
    const { user, token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly", planQueries: 3 });
    const id = await t.subscribe(token, "token_pack_10");
    expect(t.fake.sessions.get(id)!.mode).toBe("payment");
    const row = await userRow(t.db, user.id);
    expect(row.extraQueries).toBe(10);
    expect(row.planQueries).toBe(3);
    expect(row.subscriptionType).toBe("basic");
  });

  test("an unknown promo code is refused with its reason", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "subscription_basic", { promo_code: "nope" });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Ce code n'existe pas.");
  });
});

describe("GET /api/stripe/checkout-status/{session_id}", () => {
  test("an unpaid session reads unpaid and credits nothing", async () => {
    const t = await billingApp();
    const { user, token } = await t.user();
    const res = await t.checkout(token, "subscription_basic");
    const status = await t.call("GET", `/api/stripe/checkout-status/${sessionId(res.body.checkout_url)}`, { token });
    expect(status.body).toEqual({ payment_status: "unpaid", status: "open" });
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("trial");
  });

  test("a paid subscription sets plan, cycle, renewal date, allowance and the purchase amount", async () => {
    const t = await billingApp();
    const { user, token } = await t.user();
    const id = await t.subscribe(token, "subscription_pro", { is_annual: true });
    const row = await userRow(t.db, user.id);
    expect(row.subscriptionType).toBe("pro");
    expect(row.billingCycle).toBe("annual");
    expect(row.planQueries).toBe(30);
    expect(row.periodEndsAt!.toISOString()).toBe("2027-01-15T10:00:00.000Z");
    expect(row.quotaRenewsAt!.toISOString()).toBe("2026-02-15T10:00:00.000Z");
    expect(row.stripeSubscriptionId).toStartWith("sub_");
    const p = (await first(t.db.select().from(purchases).where(eq(purchases.checkoutSessionId, id))))!;
    expect(p.amountCents).toBe(29900);
  });

  test("an expired session reads expired", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.checkout(token, "subscription_basic");
    const id = sessionId(res.body.checkout_url);
    t.fake.state.expire(id);
    const status = await t.call("GET", `/api/stripe/checkout-status/${id}`, { token });
    expect(status.body.status).toBe("expired");
  });

  test("another user's session answers 404", async () => {
    const t = await billingApp();
    const a = await t.user();
    const b = await t.user();
    const res = await t.checkout(a.token, "subscription_basic");
    const id = sessionId(res.body.checkout_url);
    await t.fake.pay(id);
    const status = await t.call("GET", `/api/stripe/checkout-status/${id}`, { token: b.token });
    expect(status.status).toBe(404);
    expect((await userRow(t.db, b.user.id)).subscriptionType).toBe("trial");
  });

  test("a malformed session id is refused with 400", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.call("GET", "/api/stripe/checkout-status/not-a-session", { token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Identifiant de session de paiement invalide.");
  });

  test("a Stripe outage answers 502 in French and credits nothing", async () => {
    const t = await billingApp();
    const { user, token } = await t.user();
    const res = await t.checkout(token, "subscription_basic");
    const id = sessionId(res.body.checkout_url);
    t.fake.state.pay(id);
    t.fake.failNext("/v1/checkout/sessions");
    const status = await t.call("GET", `/api/stripe/checkout-status/${id}`, { token });
    expect(status.status).toBe(502);
    expect(status.body.detail).toBe("Le service de paiement est momentanément indisponible. Veuillez réessayer dans quelques instants.");
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("trial");
  });
});
