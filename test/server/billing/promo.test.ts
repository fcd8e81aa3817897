import { first } from "../../../src/db/transaction.ts";
import type { Db } from "../../../src/db/client.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createPromoCode, listPromoCodes } from "../../../src/billing/promo.service.ts";
import { referrals, users } from "../../../src/db/schema/index.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { billingApp, sessionId, stopFakes } from "./billing.helpers.ts";

afterEach(stopFakes);

const userRow = async (db: Db, id: number) => (await first(db.select().from(users).where(eq(users.id, id))))!;
const PRO = { subscriptionType: "pro", billingCycle: "monthly" } as const;

describe("GET /api/promo/my-code", () => {
  test("a Pro user gets a personal upper-case code, the same on every call", async () => {
    const t = await billingApp();
    const { token } = await t.user(PRO);
    const first = await t.call("GET", "/api/promo/my-code", { token });
    const second = await t.call("GET", "/api/promo/my-code", { token });
    expect(first.body).toMatchObject({ has_code: true, successful_referrals: 0, bonus_per_referral: 10 });
    expect(first.body.code).toMatch(/^[A-Z]+-[A-Z0-9]{5}$/);
    expect(second.body.code).toBe(first.body.code);
  });

  test("a basic user has no code and a message saying how to get one", async () => {
    const t = await billingApp();
    const { token } = await t.user({ subscriptionType: "basic", billingCycle: "monthly" });
    const res = await t.call("GET", "/api/promo/my-code", { token });
    expect(res.body.has_code).toBe(false);
    expect(res.body.code).toBeNull();
    expect(res.body.message).toContain("Pro");
  });
});

describe("POST /api/promo/validate", () => {
  test("another Pro user's code, typed in lower case, is valid", async () => {
    const t = await billingApp();
    const referrer = await t.user(PRO);
    const code = (await t.call("GET", "/api/promo/my-code", { token: referrer.token })).body.code;
    const { token } = await t.user();
    const res = await t.call("POST", "/api/promo/validate", { token, json: { code: code.toLowerCase() } });
    expect(res.body.valid).toBe(true);
  });

  test("one's own referral code is not valid", async () => {
    const t = await billingApp();
    const { token } = await t.user(PRO);
    const code = (await t.call("GET", "/api/promo/my-code", { token })).body.code;
    const res = await t.call("POST", "/api/promo/validate", { token, json: { code } });
    expect(res.body).toMatchObject({ valid: false, message: "Vous ne pouvez pas utiliser votre propre code de parrainage." });
  });

  test("an unknown code is answered valid false with a message", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.call("POST", "/api/promo/validate", { token, json: { code: "INCONNU" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, message: "Ce code n'existe pas." });
  });

  test("an empty code is refused with a French 400", async () => {
    const t = await billingApp();
    const { token } = await t.user();
    const res = await t.call("POST", "/api/promo/validate", { token, json: { code: "  " } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Veuillez saisir un code.");
  });

  test("an operator code is valid until it expires", async () => {
    const t = await billingApp();
    await createPromoCode(t.deps, { code: "noel", percentOff: 20, expiresAt: new Date(t.clock.now().getTime() + DAY) });
    const { token } = await t.user();
    expect((await t.call("POST", "/api/promo/validate", { token, json: { code: "NOEL" } })).body.valid).toBe(true);
    t.clock.advance(2 * DAY);
    const later = await t.call("POST", "/api/promo/validate", { token: (await t.user()).token, json: { code: "NOEL" } });
    expect(later.body).toMatchObject({ valid: false, message: "Ce code promo a expiré." });
  });

  test("an operator code past its maximum uses is no longer valid", async () => {
    const t = await billingApp();
    await createPromoCode(t.deps, { code: "UNEFOIS", percentOff: 50, maxUses: 1 });
    const first = await t.user();
    await t.subscribe(first.token, "subscription_basic", { promo_code: "unefois" });
    const res = await t.call("POST", "/api/promo/validate", { token: (await t.user()).token, json: { code: "UNEFOIS" } });
    expect(res.body.valid).toBe(false);
  });
});

describe("promo codes and referral at checkout", () => {
  test("an operator code becomes a Stripe coupon applied to the session", async () => {
    const t = await billingApp();
    const promo = await createPromoCode(t.deps, { code: "MOITIE", percentOff: 50 });
    expect(t.fake.state.coupons.get(promo.stripeCouponId!)!.percent_off).toBe(50);
    const res = await t.checkout((await t.user()).token, "subscription_basic", { promo_code: "moitie" });
    expect(t.fake.sessions.get(sessionId(res.body.checkout_url))!.amount_total).toBe(600);
  });

  test("without Stripe an operator code is stored with no coupon, and listed", async () => {
    const t = await createTestApp();
    await createPromoCode(t.deps, { code: "LOCAL10", percentOff: 10 });
    expect((await listPromoCodes(t.db)).map((p) => [p.code, p.stripeCouponId])).toEqual([["LOCAL10", null]]);
  });

  test("a duplicate operator code is refused with 409", async () => {
    const t = await createTestApp();
    await createPromoCode(t.deps, { code: "DOUBLE", percentOff: 10 });
    await expect(createPromoCode(t.deps, { code: "double", percentOff: 10 })).rejects.toMatchObject({ code: "PROMO_CODE_TAKEN" });
  });

  test("a referral gives +10 extra requests to both sides when the referee pays a plan", async () => {
    const t = await billingApp();
    const referrer = await t.user(PRO);
    const code = (await t.call("GET", "/api/promo/my-code", { token: referrer.token })).body.code;
    const referee = await t.user();
    await t.subscribe(referee.token, "subscription_basic", { promo_code: code });
    expect((await userRow(t.db, referrer.user.id)).extraQueries).toBe(10);
    expect((await userRow(t.db, referee.user.id)).extraQueries).toBe(10);
    expect((await t.call("GET", "/api/promo/my-code", { token: referrer.token })).body.successful_referrals).toBe(1);
  });

  test("a referee is rewarded once, even after resubscribing with the code", async () => {
    const t = await billingApp();
    const referrer = await t.user(PRO);
    const code = (await t.call("GET", "/api/promo/my-code", { token: referrer.token })).body.code;
    const referee = await t.user();
    await t.subscribe(referee.token, "subscription_basic", { promo_code: code });
    await t.db.update(users).set({ subscriptionType: "expired" }).where(eq(users.id, referee.user.id));
    const again = await t.checkout(referee.token, "subscription_basic", { promo_code: code });
    expect(again.status).toBe(400);
    expect(await t.db.select().from(referrals)).toHaveLength(1);
    expect((await userRow(t.db, referrer.user.id)).extraQueries).toBe(10);
  });
});
