import { first } from "../../../src/db/transaction.ts";
import type { Db } from "../../../src/db/client.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { renewalJobs } from "../../../src/billing/renewals.job.ts";
import { assignPlan } from "../../../src/billing/plan.service.ts";
import { users } from "../../../src/db/schema/index.ts";
import { runJobsOnce } from "../../../src/jobs/scheduler.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const userRow = async (db: Db, id: number) => (await first(db.select().from(users).where(eq(users.id, id))))!;

describe("assignPlan (CLI and admin)", () => {
  test("sets plan, cycle, dates and allowance, keeping extra requests", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now(), { planQueries: 1, extraQueries: 4 });
    const row = await assignPlan(t.deps, user.id, { plan: "pro", cycle: "annual" });
    expect(row).toMatchObject({ subscriptionType: "pro", billingCycle: "annual", planQueries: 30, extraQueries: 4 });
    expect(row.quotaRenewsAt!.toISOString()).toBe("2026-02-15T10:00:00.000Z");
    expect(row.periodEndsAt!.toISOString()).toBe("2027-01-15T10:00:00.000Z");
  });

  test("expired zeroes the plan's requests; trial restarts seven days", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now(), { subscriptionType: "basic", extraQueries: 2 });
    expect(await assignPlan(t.deps, user.id, { plan: "expired" })).toMatchObject({ planQueries: 0, extraQueries: 2, billingCycle: null });
    t.clock.advance(10 * DAY);
    const trial = await assignPlan(t.deps, user.id, { plan: "trial" });
    expect(trial.trialEndsAt!.getTime()).toBe(t.clock.now().getTime() + 7 * DAY);
    expect(trial.planQueries).toBe(5);
  });

  test("an unknown user is refused", async () => {
    const t = await createTestApp();
    await expect(assignPlan(t.deps, 999, { plan: "basic" })).rejects.toThrow("Utilisateur introuvable.");
  });
});

describe("renewal jobs", () => {
  test("a trial past its seven days is written expired", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    t.clock.advance(7 * DAY);
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("expired");
  });

  test("a trial with days and requests left stays a trial", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    t.clock.advance(6 * DAY);
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).subscriptionType).toBe("trial");
  });

  test("a plan set by the CLI gets its allowance back each month, once", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await assignPlan(t.deps, user.id, { plan: "basic", cycle: "monthly" });
    await t.db.update(users).set({ planQueries: 0 }).where(eq(users.id, user.id));
    t.clock.set("2026-02-15T10:00:00.000Z");
    await runJobsOnce(t.deps, renewalJobs);
    await t.db.update(users).set({ planQueries: 3 }).where(eq(users.id, user.id));
    await runJobsOnce(t.deps, renewalJobs);
    const row = await userRow(t.db, user.id);
    expect(row.planQueries).toBe(3);
    expect(row.quotaRenewsAt!.toISOString()).toBe("2026-03-15T10:00:00.000Z");
    expect(row.periodEndsAt!.toISOString()).toBe("2026-03-15T10:00:00.000Z");
  });

  test("an annual Stripe plan is reset monthly by the job inside its paid year", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await assignPlan(t.deps, user.id, { plan: "pro", cycle: "annual" });
    await t.db.update(users).set({ planQueries: 0, stripeSubscriptionId: "sub_x" }).where(eq(users.id, user.id));
    t.clock.set("2026-02-15T10:00:00.000Z");
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).planQueries).toBe(30);
  });

  test("the anniversary of an annual Stripe plan waits for invoice.paid", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await assignPlan(t.deps, user.id, { plan: "pro", cycle: "annual" });
    await t.db
      .update(users)
      .set({ stripeSubscriptionId: "sub_x", quotaRenewsAt: new Date("2027-01-15T10:00:00.000Z"), planQueries: 0 })
      .where(eq(users.id, user.id));
    t.clock.set("2027-01-15T10:00:00.000Z");
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).planQueries).toBe(0);
  });

  test("a monthly Stripe plan is never reset by the job", async () => {
    const t = await createTestApp();
    const { user } = await makeUser(t.db, t.clock.now());
    await assignPlan(t.deps, user.id, { plan: "basic", cycle: "monthly" });
    await t.db.update(users).set({ planQueries: 0, stripeSubscriptionId: "sub_y" }).where(eq(users.id, user.id));
    t.clock.set("2026-02-15T10:00:00.000Z");
    await runJobsOnce(t.deps, renewalJobs);
    expect((await userRow(t.db, user.id)).planQueries).toBe(0);
  });
});
