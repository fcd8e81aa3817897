import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { changeOptionsFor, formatEuros, OFFERS, offersFor, packAvailableFor, PLAN_ALLOWANCE } from "../../../src/contracts/pricing.ts";
import { createTestApp } from "../../helpers/app.ts";

describe("GET /api/pricing/products", () => {
  test("lists the five offers without a session", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/pricing/products");
    expect(res.status).toBe(200);
    expect(res.body.products.map((p: any) => p.product_type)).toEqual([
      "subscription_basic",
      "subscription_basic_annual",
      "subscription_pro",
      "subscription_pro_annual",
      "token_pack_10",
    ]);
  });

  test("gives prices, equivalents and savings in French format", async () => {
    const { call } = await createTestApp();
    const { products } = (await call("GET", "/api/pricing/products")).body;
    const byId = Object.fromEntries(products.map((p: any) => [p.product_type, p]));
    expect(byId.subscription_pro.price_label).toBe("29,90 €");
    expect(byId.subscription_pro.popular).toBe(true);
    expect(byId.subscription_basic_annual).toMatchObject({
      price_label: "119,00 €",
      monthly_equivalent_label: "9,92 €",
      savings_label: "23,88 €",
      badge: "2 mois gratuits",
      interval: "year",
    });
    expect(byId.subscription_pro_annual.savings_label).toBe("59,80 €");
    expect(byId.token_pack_10).toMatchObject({ price_cents: 999, requests: 10, interval: null });
  });
});

describe("pricing constants", () => {
  test("the annual sorting totals are twelve monthly prices", () => {
    expect(OFFERS.subscription_basic.annual_total_cents).toBe(14388);
    expect(OFFERS.subscription_pro.annual_total_cents).toBe(35988);
  });

  test("every subscription offer grants its plan's monthly allowance: 10 for Basic, 30 for Pro", () => {
    expect(PLAN_ALLOWANCE).toMatchObject({ basic: 10, pro: 30 });
    const subscriptions = Object.values(OFFERS).filter((o) => o.plan);
    expect(subscriptions.length).toBe(4);
    for (const offer of subscriptions) expect(offer.requests).toBe(PLAN_ALLOWANCE[offer.plan!]);
  });

  test("the module imports nothing (the SPA and the legal texts use it)", () => {
    const text = readFileSync(join(import.meta.dir, "../../../src/contracts/pricing.ts"), "utf8");
    expect(text).not.toMatch(/^\s*import\s/m);
  });

  test("formatEuros writes French amounts", () => {
    expect(formatEuros(1199)).toBe("11,99 €");
    expect(formatEuros(29900)).toBe("299,00 €");
  });
});

describe("offersFor (docs/PRODUCT.md#offers)", () => {
  const offers = (plan: Parameters<typeof offersFor>[0], remaining: number): string[] => offersFor(plan, remaining);
  const all = ["subscription_basic", "subscription_basic_annual", "subscription_pro", "subscription_pro_annual"];
  test("trial and expired users see every offer", () => {
    expect(offers("trial", 0)).toEqual(all);
    expect(offers("expired", 0)).toEqual(all);
  });
  test("basic users see every offer while requests remain, otherwise only Pro", () => {
    expect(offers("basic", 2)).toEqual(all);
    expect(offers("basic", 0)).toEqual(["subscription_pro", "subscription_pro_annual"]);
  });
  test("pro users see every offer while requests remain, otherwise none", () => {
    expect(offers("pro", 1)).toEqual(all);
    expect(offers("pro", 0)).toEqual([]);
  });
  test("the pack is for basic and pro only", () => {
    expect([packAvailableFor("trial"), packAvailableFor("expired"), packAvailableFor("basic"), packAvailableFor("pro")]).toEqual([false, false, true, true]);
  });
});

describe("changeOptionsFor (docs/PRODUCT.md#plan-changes)", () => {
  const ids = (plan: "basic" | "pro", cycle: "monthly" | "annual") => changeOptionsFor(plan, cycle).map((o) => `${o.target_plan}/${o.target_billing_cycle}`);
  test("basic monthly: pro monthly, pro annual, basic annual, then cancel", () => {
    expect(ids("basic", "monthly")).toEqual(["pro/monthly", "pro/annual", "basic/annual", "expired/null"]);
  });
  test("pro annual: pro monthly, basic monthly, basic annual, then cancel", () => {
    expect(ids("pro", "annual")).toEqual(["pro/monthly", "basic/monthly", "basic/annual", "expired/null"]);
  });
  test("no options without a paid plan", () => {
    expect(changeOptionsFor("trial", null)).toEqual([]);
  });
});
