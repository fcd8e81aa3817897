import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { historyApp, historyIds, seedConversation } from "./history.helpers.ts";

const q = (text: string) => `?q=${encodeURIComponent(text)}`;

describe("history search", () => {
  test("finds a conversation by a word of its question", async () => {
    const t = await historyApp();
    const hit = await seedConversation(t, "Comment planter des tomates sur un balcon ?", "Choisissez un pot profond.");
    await seedConversation(t, "Quelle est la capitale de la France ?", "Paris.");
    const res = await historyIds(t, q("tomates"));
    expect(res.status).toBe(200);
    expect(res.ids).toEqual([hit]);
    expect(res.body.conversations[0]).toMatchObject({ id: hit, first_message: "Comment planter des tomates sur un balcon ?", message_count: 2 });
    expect(res.next).toBeNull();
  });

  test("finds a conversation by a word found only in an answer", async () => {
    const t = await historyApp();
    await seedConversation(t, "Comment planter des tomates sur un balcon ?", "Choisissez un pot profond.");
    const hit = await seedConversation(t, "Quelle est la capitale de la France ?", "Paris, depuis l'époque des Capétiens.");
    expect((await historyIds(t, q("capétiens"))).ids).toEqual([hit]);
  });

  test("a word of the question and a word only in the answer find it together", async () => {
    const t = await historyApp();
    const hit = await seedConversation(t, "Quelle est la capitale de la France ?", "Paris, depuis l'époque des Capétiens.");
    await seedConversation(t, "Quelle est la capitale de l'Italie ?", "Rome.");
    expect((await historyIds(t, q("capitale capétiens"))).ids).toEqual([hit]);
  });

  test("accent- and case-insensitive, both ways", async () => {
    const t = await historyApp();
    const a = await seedConversation(t, "Les régions de France et leur économie");
    const b = await seedConversation(t, "L'ECONOMIE DES REGIONS");
    expect((await historyIds(t, q("economie"))).ids.sort()).toEqual([a, b].sort());
    expect((await historyIds(t, q("ÉCONOMIE RÉGION"))).ids.sort()).toEqual([a, b].sort());
  });

  test("a word prefix finds its plural (FTS5 has no French stemmer; prefixes stand in)", async () => {
    const t = await historyApp();
    const hit = await seedConversation(t, "Combien de régions compte la France ?");
    expect((await historyIds(t, q("région"))).ids).toEqual([hit]);
  });

  test("every word must match; the better match ranks first", async () => {
    const t = await historyApp();
    const weak = await seedConversation(t, `Une longue question sur le jardin ${"et bien d'autres choses encore ".repeat(20)} avec une seule tomate`);
    const strong = await seedConversation(t, "Tomate, tomate, tomate : quelle variété de tomate ?");
    const short = await seedConversation(t, "Le jardin sans tomate ? Non : sans légumes.");
    expect((await historyIds(t, q("tomate"))).ids).toEqual([strong, short, weak]);
    expect((await historyIds(t, q("tomate variété"))).ids).toEqual([strong]);
    expect((await historyIds(t, q("tomate jardin"))).ids.sort()).toEqual([weak, short].sort());
  });

  test("never another user's conversations", async () => {
    const t = await historyApp();
    const other = await makeUser(t.db, t.clock.now());
    await seedConversation(t, "Ma question sur les artichauts", undefined, other.user.id);
    expect((await historyIds(t, q("artichauts"))).ids).toEqual([]);
  });

  test("a deleted conversation leaves the search", async () => {
    const t = await historyApp();
    const id = await seedConversation(t, "Une question sur les artichauts", "Une réponse sur les artichauts");
    await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token });
    expect((await historyIds(t, q("artichauts"))).ids).toEqual([]);
    // SQLite's FTS5 index is a side table that must be emptied too; PostgreSQL's is a column of the deleted rows.
    if (!onPostgres) expect(t.db.$client.query("SELECT count(*) AS n FROM chat_search").get()).toEqual({ n: 0 });
  });

  test("quotes, stars and FTS operators are plain text, never syntax", async () => {
    const t = await historyApp();
    const hit = await seedConversation(t, "Question NEAR la mer OR la montagne");
    for (const text of ['"mer', "mer*", "NEAR(mer", "owner:u1", "mer AND", "-mer ^"]) {
      const res = await historyIds(t, q(text));
      expect(res.status).toBe(200);
    }
    expect((await historyIds(t, q('"montagne"*'))).ids).toEqual([hit]);
  });

  test("an elided article is not a word: « l'économie » finds « économie »", async () => {
    const t = await historyApp();
    const hit = await seedConversation(t, "Comment va l'économie française ?");
    await seedConversation(t, "Les lapins et les loups");
    expect((await historyIds(t, q("L’Économie"))).ids).toEqual([hit]);
  });

  test("a search with no letters or digits finds nothing", async () => {
    const t = await historyApp();
    await seedConversation(t, "Une question");
    expect((await historyIds(t, q("?! …"))).ids).toEqual([]);
  });

  test("a search over 200 characters: 400 in French", async () => {
    const t = await historyApp();
    const res = await historyIds(t, q("a".repeat(201)));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("La recherche est trop longue (200 caractères au plus).");
  });
});
