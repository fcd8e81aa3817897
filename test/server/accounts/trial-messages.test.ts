import { describe, expect, test } from "bun:test";
import { assignPlan } from "../../../src/billing/plan.service.ts";
import { renewalJobs } from "../../../src/billing/renewals.job.ts";
import { runJobsOnce } from "../../../src/jobs/scheduler.ts";
import { DAY, MINUTE } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/**
 * A trial blocked because its 5 requests are spent is told so for as long as
 * that is why: the trial-expiry job writing it `expired` a minute later does
 * not turn the message into the 7-day one (issue 30).
 */
const SPENT = "Vous avez utilisé vos 5 requêtes gratuites. Choisissez un forfait payant pour continuer.";
const OVER = "Votre essai gratuit de 7 jours est terminé. Choisissez un forfait payant pour continuer.";

async function spentTrial() {
  const t = await createTestApp();
  const { user, token } = await makeUser(t.db, t.clock.now(), { subscriptionType: "trial", planQueries: 0 });
  const ask = async () => await t.call("POST", "/api/unisson/chat", { token, json: { message: "Quelle est la capitale de la France ?" } });
  return { ...t, user, token, ask };
}

describe("the trial's message stays true", () => {
  test("a spent trial is told its 5 requests are used, before and after the trial-expiry job writes it expired", async () => {
    const t = await spentTrial();
    expect((await t.ask()).body.detail).toBe(SPENT);
    t.clock.advance(MINUTE);
    await runJobsOnce(t.deps, renewalJobs);
    const after = await t.ask();
    expect(after.status).toBe(402);
    expect(after.body.detail).toBe(SPENT);
  });

  test("the user object keeps counting the days of a spent trial written expired, so the page says the same", async () => {
    const t = await spentTrial();
    await runJobsOnce(t.deps, renewalJobs);
    const me = (await t.call("GET", "/api/auth/me", { token: t.token })).body;
    expect(me.subscription_type).toBe("expired");
    expect(me.trial_days_remaining).toBeGreaterThan(0);
  });

  test("once its 7 days are over too, the spent trial reads the 7-day text", async () => {
    const t = await spentTrial();
    await runJobsOnce(t.deps, renewalJobs);
    t.clock.advance(8 * DAY);
    expect((await t.ask()).body.detail).toBe(OVER);
  });

  test("a paid plan that ends within the first 7 days never reads as a spent trial", async () => {
    const t = await spentTrial();
    await assignPlan(t.deps, t.user.id, { plan: "basic" });
    await assignPlan(t.deps, t.user.id, { plan: "expired" });
    expect((await t.ask()).body.detail).toBe(OVER);
  });
});
