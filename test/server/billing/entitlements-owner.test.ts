import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Issue 12, "one owner of entitlements": the columns that say what an account
 * may use are written by src/billing/billing.queries.ts only, and only
 * src/billing/entitlements.ts calls its writers. A grep over the source, so a
 * new writer anywhere fails here.
 */
const ROOT = join(import.meta.dir, "../../..");
const COLUMNS = [
  "subscriptionType",
  "billingCycle",
  "planQueries",
  "extraQueries",
  "trialEndsAt",
  "planStartedAt",
  "quotaRenewsAt",
  "periodEndsAt",
  "stripeSubscriptionId",
];
const SQL_COLUMNS = [
  "subscription_type",
  "billing_cycle",
  "plan_queries",
  "extra_queries",
  "trial_ends_at",
  "plan_started_at",
  "quota_renews_at",
  "period_ends_at",
  "stripe_subscription_id",
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "migrations" || name === "schema" ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = [...sources(join(ROOT, "src")), ...sources(join(ROOT, "cli"))].map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, "utf8") }));

describe("one owner of entitlements", () => {
  test("only billing.queries.ts updates users with an entitlement column", () => {
    const writers = files.filter(({ text }) => {
      const writesUsers = /\.update\(users\)|updateUser\(|UPDATE\s+users/i.test(text);
      const namesColumn = COLUMNS.some((c) => new RegExp(`\\b${c}\\s*:`).test(text)) || SQL_COLUMNS.some((c) => new RegExp(`\\b${c}\\s*=(?!=)`).test(text));
      return writesUsers && namesColumn;
    });
    expect(writers.map((f) => f.path)).toEqual(["src/billing/billing.queries.ts"]);
  });

  test("only entitlements.ts imports billing.queries.ts", () => {
    const importers = files.filter(({ text }) => /from "[./]*(billing\/)?billing\.queries\.ts"/.test(text)).map((f) => f.path);
    expect(importers).toEqual(["src/billing/entitlements.ts"]);
  });

  test("a new account's entitlements come from entitlements.ts too", () => {
    const inserters = files.filter(({ text }) => /insertUser\(|\.insert\(users\)/.test(text) && COLUMNS.some((c) => new RegExp(`\\b${c}\\s*:`).test(text)));
    expect(inserters.map((f) => f.path)).toEqual([]);
  });

  test("plan allowances and the version are written once", () => {
    const allowance = files.filter(({ text }) => /trial:\s*5\b|basic:\s*10\b|pro:\s*30\b/.test(text)).map((f) => f.path);
    expect(allowance).toEqual(["src/contracts/pricing.ts"]);
    const version = files.filter(({ text }) => /["']2\.4["']/.test(text)).map((f) => f.path);
    expect(version).toEqual(["src/contracts/version.ts"]);
  });
});
