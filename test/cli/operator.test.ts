import { first, one } from "../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { aiCalls, conversations, processingRuns, purchases, users } from "../../src/db/schema/index.ts";
import { createOutboxMailer } from "../../src/lib/mail/outbox.ts";
import { createMemoryLogger } from "../helpers/memory-logger.ts";
import { HOUR, systemClock } from "../../src/lib/clock.ts";
import { dbPath, runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { openDb } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();

async function setup() {
  const dir = await dataDir();
  return { dir, cli: (...args: string[]) => runCli(args, dir) };
}

describe("unisson stats", () => {
  test("--json answers the admin dashboard's numbers", async () => {
    const { dir, cli } = await setup();
    await withDb(dir, async (db) => {
      const { user } = await makeUser(db, new Date(), { subscriptionType: "pro" });
      await makeUser(db, new Date(), { trialEndsAt: new Date(Date.now() - HOUR) });
      await db.insert(purchases).values({ userId: user.id, productType: "subscription_pro", amountCents: 2990, createdAt: new Date() });
    });
    const r = cli("stats", "--json");
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({
      total_users: 2,
      total_revenue: 29.9,
      completed_purchases: 1,
      recent_users_7_days: 2,
      users_by_subscription: { trial: 0, basic: 0, pro: 1, expired: 1 },
      ai_costs: { days: 30, total_eur: 0, spend_by_day: [], spend_by_model: [], answers: 0, average_per_answer_eur: 0 },
    });
  });

  test("shows the AI spend per model and per day, and the average cost of an answer", async () => {
    const { dir, cli } = await setup();
    await withDb(dir, async (db) => {
      const { user } = await makeUser(db, new Date());
      const conversation = await one(
        db.insert(conversations).values({ userId: user.id, title: "t", createdAt: new Date(), updatedAt: new Date() }).returning(),
      );
      const call = { userId: user.id, provider: "openai", outcome: "ok" as const, latencyMs: 10, createdAt: new Date() };
      await db.insert(aiCalls).values([
        { ...call, model: "GPT-4", purpose: "answer", costEur: 0.012 },
        { ...call, model: "Claude Opus 4.1", purpose: "synthesis", costEur: 0.1 },
      ]);
      await db
        .insert(processingRuns)
        .values({ conversationId: conversation.id, turnMessageId: 1, userId: user.id, status: "done", createdAt: new Date(), finishedAt: new Date() });
    });
    const r = cli("stats");
    expect(r.stdout).toMatch(/Coût des IA, 30 derniers jours : 0,1120\s€ ; 1 réponses, 0,1120\s€ par réponse en moyenne/);
    expect(r.stdout).toMatch(/Claude Opus 4\.1\s+1\s+0,1000\s€/);
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\d\s+0,1120\s€/);
  });

  test("prints a French table with the revenue in euros", async () => {
    const { cli } = await setup();
    const r = cli("stats");
    expect(r.stdout).toMatch(/Utilisateurs\s+0/);
    expect(r.stdout).toMatch(/Chiffre d'affaires\s+0,00\s€/);
  });
});

describe("unisson promo", () => {
  test("create then list: the code is upper-cased and listed with its terms", async () => {
    const { cli } = await setup();
    const created = cli("promo", "create", "bienvenue", "--percent", "20", "--max-uses", "50", "--expires", "2099-12-31", "--json");
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ code: "BIENVENUE", percent_off: 20, max_uses: 50, expires_at: "2099-12-31T23:59:59.999Z" });
    const list = cli("promo", "list", "--json");
    expect(list.json().map((p: { code: string }) => p.code)).toEqual(["BIENVENUE"]);
  });

  test("a code that exists already is refused, exit 1", async () => {
    const { cli } = await setup();
    cli("promo", "create", "ETE25", "--percent", "25");
    const r = cli("promo", "create", "ete25", "--percent", "10");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Ce code promo existe déjà.");
  });

  test("--percent 150 is a usage error, exit 2", async () => {
    const { cli } = await setup();
    expect(cli("promo", "create", "TROP", "--percent", "150").code).toBe(2);
  });

  test("an expiry date in the past is refused, exit 1", async () => {
    const { cli } = await setup();
    const r = cli("promo", "create", "VIEUX", "--percent", "10", "--expires", "2000-01-01");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("La date d'expiration doit être dans le futur.");
  });
});

describe("unisson mail list", () => {
  test("--last N answers the N newest mails of the outbox, with their text", async () => {
    const { dir, cli } = await setup();
    const db = openDb(dbPath(dir));
    await runMigrations(db);
    const mailer = createOutboxMailer(db, systemClock, createMemoryLogger());
    await mailer.send({ to: "a@example.fr", subject: "Premier", text: "un", kind: "test" });
    await mailer.send({ to: "b@example.fr", subject: "Second", text: "Lien : https://x/reset", kind: "reset" });
    db.$client.close();
    const r = cli("mail", "list", "--last", "1", "--json");
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([expect.objectContaining({ to: "b@example.fr", subject: "Second", status: "outbox", text: "Lien : https://x/reset" })]);
  });

  test("an empty outbox says so", async () => {
    const { cli } = await setup();
    expect(cli("mail", "list").stdout.trim()).toBe("Aucun email.");
  });
});

describe("unisson renewals run", () => {
  test("runs every job once: a trial past its end is written expired", async () => {
    const { dir, cli } = await setup();
    const user = await withDb(dir, async (db) => (await makeUser(db, new Date(), { trialEndsAt: new Date(Date.now() - HOUR) })).user);
    const r = cli("renewals", "run", "--json");
    expect(r.code).toBe(0);
    expect(r.json()["trial-expiry"]).toEqual({ expired: 1 });
    expect(await withDb(dir, async (db) => (await first(db.select().from(users).where(eq(users.id, user.id))))!.subscriptionType)).toBe("expired");
  });
});

describe("unisson (usage)", () => {
  test("an unknown command is a usage error, exit 2", async () => {
    const { cli } = await setup();
    expect(cli("nimporte").code).toBe(2);
  });

  test("a missing argument is a usage error, exit 2", async () => {
    const { cli } = await setup();
    expect(cli("users", "show").code).toBe(2);
  });

  test("log lines never reach stdout: --json output stays parseable with LOG_LEVEL=debug", async () => {
    const { dir } = await setup();
    const r = runCli(["promo", "list", "--json"], dir, { LOG_LEVEL: "debug" });
    expect(r.code).toBe(0);
    expect(r.json()).toEqual([]);
  });
});
