import { describe, expect, test } from "bun:test";
import type { Db } from "../../../src/db/client.ts";
import { aiCalls } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { runCli, useDataDirs, withDb } from "../../helpers/cli.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { askWithWeb, useFakePages, useFakeSearxng, webApp } from "./web-search.helpers.ts";

const fakes = useFakeProviders();
const searx = useFakeSearxng();
const dataDir = useDataDirs();
const fakePages = useFakePages();

function twoArticles() {
  searx().results = () => [
    { url: fakePages().url("/article/un"), title: "Article un" },
    { url: fakePages().url("/article/deux"), title: "Article deux" },
  ];
}

describe("web searches and page reads, counted per user and per day", () => {
  test("a page read lately is not fetched again: the next question reads it from the cache", async () => {
    twoArticles();
    const t = await webApp(fakes(), searx());
    await askWithWeb(t, "Première question ?");
    const fetched = fakePages().hits.filter((p) => p === "/article/un").length;
    await askWithWeb(t, "Deuxième question ?");
    expect(fakePages().hits.filter((p) => p === "/article/un").length).toBe(fetched);
    expect(fakes().control.callsOf("answer").at(-1)!.messages.at(-1)!.content).toContain("Selon la page un");
  });

  test("GET /api/admin/usage gives the searches and the pages read per day and per user", async () => {
    twoArticles();
    const t = await webApp(fakes(), searx());
    const question = async () => await askWithWeb(t, `Une question ${crypto.randomUUID()} ?`);
    // A fresh app has an empty cache: the first question reads both pages, the second none.
    await question();
    await question();
    const { token } = await makeUser(t.db, t.clock.now(), { email: "admin@example.fr", isAdmin: true });
    const res = await t.call("GET", "/api/admin/usage", { token });
    const day = t.clock.now().toISOString().slice(0, 10);
    expect(res.body.web_search).toEqual({
      per_day: [{ day, searches: 2, fetches: 2 }],
      users: [{ user_id: t.user.id, email: t.user.email, searches: 2, fetches: 2 }],
    });
  });

  test("`unisson usage` prints the web searches and pages read, per day and per user", async () => {
    const seed = async (db: Db) => {
      const { user } = await makeUser(db, new Date(), { email: "chercheuse@example.fr" });
      const row = (purpose: "web_search" | "web_fetch") => ({
        userId: user.id,
        model: "Recherche web",
        provider: "web",
        purpose,
        outcome: "ok" as const,
        latencyMs: 300,
        costEur: 0,
        createdAt: new Date(),
      });
      await db.insert(aiCalls).values([row("web_search"), row("web_fetch"), row("web_fetch"), row("web_fetch")]);
    };
    let r: ReturnType<typeof runCli>;
    if (onPostgres) {
      const t = await createTestApp();
      await seed(t.db);
      r = runCli(["usage", "--days", "7"], await dataDir({ empty: true }), { DATABASE_URL: t.config.databaseUrl! });
    } else {
      const dir = await dataDir();
      await withDb(dir, seed);
      r = runCli(["usage", "--days", "7"], dir);
    }
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Recherche web : 1 recherche, 3 pages lues");
    expect(r.stdout).toMatch(/chercheuse@example\.fr\s+1\s+3/);
  });
});
