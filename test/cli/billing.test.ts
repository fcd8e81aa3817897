import { first } from "../../src/db/transaction.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../src/db/schema/index.ts";
import { type FakeStripe, startFakeStripe } from "../fakes/stripe/server.ts";
import { runCli, runCliAsync, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();
const fakes: FakeStripe[] = [];
afterEach(() => {
  while (fakes.length) fakes.pop()!.stop();
});

/** A data folder with lea@example.fr on a Basic plan paid through the fake Stripe. */
async function subscriberSetup() {
  const dir = await dataDir();
  const fake = await startFakeStripe();
  fakes.push(fake);
  fake.state.createProduct({ id: "unisson_basic", name: "Basic" });
  const customer = fake.state.createCustomer({ email: "lea@example.fr" });
  const session = fake.state.createSession({
    mode: "subscription",
    customer: customer.id,
    success_url: "http://localhost/",
    metadata: {},
    line_items: [{ price_data: { currency: "eur", product: "unisson_basic", unit_amount: "1199", recurring: { interval: "month" } } }],
  });
  const subId = fake.state.pay(session.id).subscription as string;
  const item = fake.state.subscriptions.get(subId)!.items.data[0];
  const lea = await withDb(
    dir,
    async (db) =>
      (
        await makeUser(db, new Date(), {
          email: "lea@example.fr",
          subscriptionType: "basic",
          billingCycle: "monthly",
          planQueries: 10,
          stripeCustomerId: customer.id,
          stripeSubscriptionId: subId,
          planStartedAt: new Date(item.current_period_start * 1000),
          periodEndsAt: new Date(item.current_period_end * 1000),
        })
      ).user,
  );
  const cli = (...args: string[]) => runCliAsync(args, dir, fake.env);
  const row = async () => await withDb(dir, async (db) => await first(db.select().from(users).where(eq(users.id, lea.id))));
  return { dir, fake, subId, cli, row, sub: () => fake.state.subscriptions.get(subId)! };
}

describe("unisson billing reconcile", () => {
  test("without a Stripe key it says so and exits 1", async () => {
    const dir = await dataDir();
    const r = runCli(["billing", "reconcile"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Stripe n'est pas configuré");
  });

  test("--dry-run prints the difference and changes nothing; without it the difference is fixed and a second run finds none", async () => {
    const { cli, row, sub, subId } = await subscriberSetup();
    sub().status = "canceled"; // cancelled in the dashboard, no webhook
    const dry = await cli("billing", "reconcile", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("abonnement terminé");
    expect(dry.stdout).toContain("simulation");
    expect((await row())!.subscriptionType).toBe("basic");

    const fixed = await cli("billing", "reconcile", "--json");
    expect(fixed.code).toBe(0);
    expect(fixed.json().differences).toEqual([expect.objectContaining({ kind: "abonnement terminé", stripe_ref: subId, fixed: true })]);
    expect(await row()).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null });
    const again = await cli("billing", "reconcile");
    expect(again.stdout).toContain("Aucune différence.");
  });
});

describe("unisson users (a Stripe subscriber)", () => {
  test("set-plan is refused with a message saying Stripe drives the plan", async () => {
    const { cli, row } = await subscriberSetup();
    const r = await cli("users", "set-plan", "lea@example.fr", "pro");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("abonnement Stripe");
    expect((await row())!.subscriptionType).toBe("basic");
  });

  test("set-plan expired goes through Stripe: the subscription is cancelled at once, then the plan expires", async () => {
    const { cli, row, sub } = await subscriberSetup();
    const r = await cli("users", "set-plan", "lea@example.fr", "expired");
    expect(r.code).toBe(0);
    expect(sub().status).toBe("canceled");
    expect(await row()).toMatchObject({ subscriptionType: "expired", stripeSubscriptionId: null });
  });

  test("delete cancels the subscription at Stripe first", async () => {
    const { cli, row, sub } = await subscriberSetup();
    const r = await cli("users", "delete", "lea@example.fr", "--yes");
    expect(r.code).toBe(0);
    expect(sub().status).toBe("canceled");
    expect(await row()).toBeUndefined();
  });

  test("delete is refused, account kept, when Stripe does not cancel", async () => {
    const { cli, row, sub, fake } = await subscriberSetup();
    fake.failNext("/v1/subscriptions/");
    const r = await cli("users", "delete", "lea@example.fr", "--yes");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("la suppression est refusée");
    expect(await row()).toBeDefined();
    expect(sub().status).toBe("active");
  });

  test("show prints the billing history with who did what", async () => {
    const { cli, sub } = await subscriberSetup();
    sub().status = "canceled";
    await cli("billing", "reconcile");
    const r = await cli("users", "show", "lea@example.fr");
    expect(r.stdout).toContain("Historique de facturation");
    expect(r.stdout).toContain("reconcile");
    expect(r.stdout).toContain("forfait expiré");
  });
});
