import { describe, expect, test } from "bun:test";
import type { Db } from "../../../src/db/client.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { aiCalls, conversations, messages, processingRuns } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { runCli, useDataDirs, withDb } from "../../helpers/cli.ts";
import { makeUser } from "../../helpers/fixtures.ts";

type NewAiCall = typeof aiCalls.$inferInsert;

const dataDir = useDataDirs();

/** `unisson usage ...` on a database (seeded or not): the data folder's SQLite file, or a PostgreSQL database through DATABASE_URL. */
async function usageCli(args: string[], seeded: boolean) {
  if (onPostgres) {
    // An empty folder: making a SQLite one would open SQLite in this process, which has one dialect.
    const t = await createTestApp();
    if (seeded) await seed(t.db, Date.now());
    return runCli(args, await dataDir({ empty: true }), { DATABASE_URL: t.config.databaseUrl! });
  }
  const dir = await dataDir();
  if (seeded) await withDb(dir, async (db) => await seed(db, Date.now()));
  return runCli(args, dir);
}
const NOW = Date.parse("2026-01-15T10:00:00.000Z");

/**
 * Known rows: two users; GPT-4 with 4 answer calls (3 ok at 100/200/900 ms, 1 timeout),
 * Mistral 1 failed call, probes (never counted), one call 40 days old (outside 30 days),
 * and final processings on two days.
 */
async function seed(db: Db, now = NOW) {
  const a = (await makeUser(db, new Date(now), { email: "alice@example.fr" })).user.id;
  const b = (await makeUser(db, new Date(now), { email: "bob@example.fr" })).user.id;
  const call = async (
    user: number | null,
    model: string,
    purpose: NewAiCall["purpose"],
    outcome: NewAiCall["outcome"],
    ms: number,
    tin: number | null,
    tout: number | null,
    eur: number | null,
    at = now - DAY,
  ) =>
    await db.insert(aiCalls).values({
      userId: user,
      model,
      provider: "p",
      purpose,
      outcome,
      latencyMs: ms,
      tokensIn: tin,
      tokensOut: tout,
      costEur: eur,
      createdAt: new Date(at),
    });
  await call(a, "GPT-4", "answer", "ok", 200, 10, 100, 0.01);
  await call(a, "GPT-4", "answer", "ok", 900, 10, 100, 0.02);
  await call(b, "GPT-4", "answer", "ok", 100, 5, 50, 0.005);
  await call(b, "GPT-4", "answer", "timeout", 30000, null, null, null);
  await call(a, "Mistral Large", "answer", "error", 50, null, null, 0);
  await call(null, "GPT-4", "probe", "ok", 10, 1, 1, 0.0001);
  await call(null, "Mistral Large", "probe", "error", 10, null, null, null);
  await call(a, "GPT-4", "answer", "ok", 5000, 1000, 1000, 1, now - 40 * DAY);
  const epoch = new Date(0);
  const run = async (user: number, status: "done" | "failed", at: number) => {
    const [c] = await db.insert(conversations).values({ userId: user, title: "q", createdAt: epoch, updatedAt: epoch }).returning({ id: conversations.id });
    const [m] = await db.insert(messages).values({ conversationId: c!.id, sender: "user", content: "q", createdAt: epoch }).returning({ id: messages.id });
    await db
      .insert(processingRuns)
      .values({ conversationId: c!.id, turnMessageId: m!.id, userId: user, status, charged: false, createdAt: new Date(at), finishedAt: new Date(at) });
  };
  const HOUR = DAY / 24;
  await run(a, "done", now - 2 * DAY - HOUR);
  await run(a, "done", now - DAY - HOUR);
  await run(b, "done", now - 11 * HOUR);
  await run(b, "failed", now - DAY);
  return { a, b };
}

const EXPECTED = {
  days: 30,
  since: "2025-12-16T10:00:00.000Z",
  answers_per_day: [
    { day: "2026-01-13", answers: 1, failed: 0, eur: 0 },
    { day: "2026-01-14", answers: 2, failed: 1, eur: 0.035 },
  ],
  models: [
    { model: "GPT-4", calls: 4, ok: 3, failed: 1, success_rate: 0.75, p50_ms: 200, p95_ms: 900, tokens_in: 25, tokens_out: 250, eur: 0.035 },
    { model: "Mistral Large", calls: 1, ok: 0, failed: 1, success_rate: 0, p50_ms: null, p95_ms: null, tokens_in: 0, tokens_out: 0, eur: 0 },
  ],
  // Every call of the window, probes included (the same total as /api/admin/ai-costs); the probes apart; answers and syntheses over 3 answers.
  spend: { total_eur: 0.0351, probes_eur: 0.0001, average_per_answer_eur: 0.0117 },
};

describe("usage figures", () => {
  test("GET /api/admin/usage answers figures that match the rows it reads", async () => {
    const t = await createTestApp();
    t.clock.set(NOW);
    const { a, b } = await seed(t.db);
    const { token } = await makeUser(t.db, t.clock.now(), { email: "admin@example.fr", isAdmin: true });
    const res = await t.call("GET", "/api/admin/usage", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...EXPECTED,
      top_users: [
        { user_id: a, email: "alice@example.fr", answers: 2, tokens_in: 20, tokens_out: 200 },
        { user_id: b, email: "bob@example.fr", answers: 1, tokens_in: 5, tokens_out: 50 },
      ],
      attachments: { files: 0, megabytes: 0, users: [] },
      web_search: { per_day: [], users: [] },
    });
  });

  test("days out of range answers 400 in French", async () => {
    const t = await createTestApp();
    const { token } = await makeUser(t.db, t.clock.now(), { email: "admin@example.fr", isAdmin: true });
    for (const days of ["0", "91", "trois"]) {
      const res = await t.call("GET", `/api/admin/usage?days=${days}`, { token });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe("Le nombre de jours doit être un entier entre 1 et 90");
    }
  });

  test("`unisson usage --json --days 90` reads the same rows, the 40-day-old call included", async () => {
    // The CLI runs on today's clock: ask for a window that holds the seeded days whatever today is.
    const r = await usageCli(["usage", "--json", "--days", "90"], true);
    expect(r.code).toBe(0);
    const u = r.json();
    expect(u.days).toBe(90);
    expect(u.top_users.map((x: { email: string; tokens_in: number }) => [x.email, x.tokens_in])).toEqual([
      ["alice@example.fr", 1020],
      ["bob@example.fr", 5],
    ]);
    expect(u.models[0]).toEqual({
      model: "GPT-4",
      calls: 5,
      ok: 4,
      failed: 1,
      success_rate: 0.8,
      p50_ms: 200,
      p95_ms: 5000,
      tokens_in: 1025,
      tokens_out: 1250,
      eur: 1.035,
    });
    expect(u.answers_per_day.reduce((n: number, d: { answers: number }) => n + d.answers, 0)).toBe(3);
    // The day of the 40-day-old call has no run but its spend.
    expect(u.answers_per_day.filter((d: { answers: number; failed: number }) => d.answers + d.failed === 0).map((d: { eur: number }) => d.eur)).toEqual([1]);
    expect(u.spend.total_eur).toBe(1.0351);
  });

  test("the spend of /usage adds up to /ai-costs: the days plus the probes, and the models plus the probes, make its total", async () => {
    const t = await createTestApp();
    t.clock.set(NOW);
    await seed(t.db);
    const { token } = await makeUser(t.db, t.clock.now(), { email: "admin@example.fr", isAdmin: true });
    const usage = (await t.call("GET", "/api/admin/usage", { token })).body;
    const costs = (await t.call("GET", "/api/admin/ai-costs", { token })).body;
    expect(usage.spend.total_eur).toBe(costs.total_eur);
    expect(usage.answers_per_day.reduce((n: number, d: { eur: number }) => n + d.eur, 0) + usage.spend.probes_eur).toBeCloseTo(costs.total_eur, 6);
    expect(usage.models.reduce((n: number, m: { eur: number }) => n + m.eur, 0) + usage.spend.probes_eur).toBeCloseTo(costs.total_eur, 6);
    expect(usage.spend.average_per_answer_eur).toBe(costs.average_per_answer_eur);
  });

  test("`unisson usage` prints French tables", async () => {
    const r = await usageCli(["usage", "--days", "7"], false);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage des 7 derniers jours");
    expect(r.stdout).toContain("Aucun appel aux modèles.");
    expect(r.stdout).toContain("Pièces jointes stockées : 0 fichier, 0,00 Mo");
  });

  test("`unisson usage` prints the spend: per day, per model, the total with the probes and per answer", async () => {
    const r = await usageCli(["usage", "--days", "7"], true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Dépense des IA : 0,0351\s€ \(dont sondes 0,0001\s€\), 0,0117\s€ par réponse en moyenne/);
    // The answers of that day depend on the hour the test runs; its failed run and its calls do not.
    expect(r.stdout).toMatch(/\d{4}-\d\d-\d\d\s+\d+\s+1\s+0,0350\s€/);
    expect(r.stdout).toMatch(/GPT-4\s+4\s+75,0 %.*0,0350\s€/);
  });
});
