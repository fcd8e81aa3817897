import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sharedLinks } from "../../../src/db/schema/index.ts";
import { sha256 } from "../../../src/lib/tokens.ts";
import type { NewUser } from "../../../src/users/users.queries.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { askReady, type ChatApp, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";

const fakes = useFakeProviders();
const SOURCE = "https://www.insee.fr/fr/statistiques/capitale";

/** The first run of a file loads every provider's SDK: a loaded machine can take seconds, which is no failure of sharing. */
const sharingApp = (user?: Partial<NewUser>) => chatApp(fakes(), { env: { AI_TIMEOUT_MS: "20000" }, user });

/** A conversation with one processed question (Sonar Pro cites a source). */
async function answered(t: ChatApp, question = "Quelle est la capitale de la France ?"): Promise<number> {
  fakes().control.set("sonarPro", { citations: [SOURCE] });
  const id = await askReady(t, question);
  const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
  if (res.status !== 200) throw new Error(`process failed: ${res.status} ${JSON.stringify(res.body)}`);
  return id;
}

const share = (t: ChatApp, json: unknown, token = t.token) => t.call("POST", "/api/shares", { token, json });
const pathOf = (url: string) => new URL(url).pathname;
/** The copy behind a link as anyone reads it: no session. */
const visit = (t: ChatApp, url: string) => t.call("GET", `/api/shared/${pathOf(url).slice("/partage/".length)}`);

describe("creating a shared link", () => {
  test("POST /api/shares answers a link of 256 random bits under /partage/, and only its hash is stored", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const res = await share(t, { conversation_id: id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ conversation_id: id, title: "Quelle est la capitale de la France ?", include_models: false });
    const token = pathOf(res.body.url).replace("/partage/", "");
    expect(res.body.url.startsWith(`${t.config.publicUrl}/partage/`)).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.prefix).toBe(token.slice(0, 4));
    const [row] = await t.db.select().from(sharedLinks).where(eq(sharedLinks.id, res.body.id));
    expect(row!.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  test("two links of the same conversation share no token, and tokens show no pattern", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) tokens.push(pathOf((await share(t, { conversation_id: id })).body.url).slice("/partage/".length));
    expect(new Set(tokens).size).toBe(20);
    // 20 × 43 base64url characters: every one of the 64 symbols shows up, as they would from a uniform source.
    expect(new Set(tokens.join("")).size).toBe(64);
  });

  test("another user's conversation: 404 in French, nothing created", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const res = await share(t, { conversation_id: id }, other.token);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Conversation introuvable.");
    expect(await t.db.select().from(sharedLinks)).toEqual([]);
  });

  test("a conversation without an answer yet: 409 in French", async () => {
    const t = await sharingApp();
    const id = await askReady(t);
    const res = await share(t, { conversation_id: id });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Cette conversation n'a encore aucune réponse à partager.");
  });

  test("bad input: 400 in French", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const bad = await share(t, { conversation_id: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Identifiant de conversation invalide.");
    const flag = await share(t, { conversation_id: id, include_models: "oui" });
    expect(flag.status).toBe(400);
    expect(flag.body.detail).toBe("« Inclure les réponses de chaque modèle » doit valoir true ou false.");
  });

  test("the 101st live link of an account: 409 with the spec's French message, nothing created", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    for (let i = 0; i < 100; i++) expect((await share(t, { conversation_id: id })).status).toBe(201);
    const res = await share(t, { conversation_id: id });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Vous avez déjà 100 liens partagés : révoquez-en un dans « Mon compte » avant d'en créer un autre.");
    expect(await t.db.select().from(sharedLinks)).toHaveLength(100);
  });

  test("without a session: 401", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    expect((await t.call("POST", "/api/shares", { json: { conversation_id: id } })).status).toBe(401);
  });
});

describe("the shared copy", () => {
  test("anyone reads the title, the question, the consolidated answer and its sources, without an account", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const { url } = (await share(t, { conversation_id: id })).body;
    const answer = (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.messages[1].content as string;
    const res = await visit(t, url);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      title: "Quelle est la capitale de la France ?",
      shared_at: t.clock.now().toISOString(),
      turns: [{ question: "Quelle est la capitale de la France ?", answer, sources: [SOURCE], models: null }],
    });
  });

  test("is never indexed nor cached", async () => {
    const t = await sharingApp();
    const { url } = (await share(t, { conversation_id: await answered(t) })).body;
    const res = await visit(t, url);
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("holds no e-mail, name, quota or cost of the owner, even with each model's answer", async () => {
    const t = await sharingApp({ email: "zoe.quintal@example.fr", firstName: "Zoé", lastName: "Quintaloup" });
    const { url } = (await share(t, { conversation_id: await answered(t), include_models: true })).body;
    const text = JSON.stringify((await visit(t, url)).body).toLowerCase();
    for (const word of ["zoe.quintal", "zoé", "quintaloup", "cost", "tokens", "latency", "queries", "charged", "user"]) expect(text).not.toContain(word);
  });

  test("each model's answer only when ticked", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const without = (await visit(t, (await share(t, { conversation_id: id })).body.url)).body;
    const withModels = (await visit(t, (await share(t, { conversation_id: id, include_models: true })).body.url)).body;
    expect(without.turns[0].models).toBeNull();
    const names = withModels.turns[0].models.map((m: { name: string }) => m.name);
    expect(names).toContain("GPT-4");
    expect(names).toContain("Sonar Pro");
    expect(withModels.turns[0].models.every((m: { answer: string }) => m.answer.length > 0)).toBe(true);
  });

  test("is a copy: a later rename or question does not show", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const { url } = (await share(t, { conversation_id: id })).body;
    await t.call("PATCH", `/api/unisson/conversation/${id}`, { token: t.token, json: { title: "Nouveau titre" } });
    await t.call("POST", "/api/unisson/chat", {
      token: t.token,
      json: { conversation_id: id, message: "Et quelle est la capitale de l'Espagne aujourd'hui ?" },
    });
    const copy = (await visit(t, url)).body;
    expect(copy.title).toBe("Quelle est la capitale de la France ?");
    expect(copy.turns).toHaveLength(1);
  });

  test("the token never reaches the logs", async () => {
    const t = await sharingApp();
    const { url } = (await share(t, { conversation_id: await answered(t) })).body;
    const token = pathOf(url).slice("/partage/".length);
    await visit(t, url);
    await t.call("GET", pathOf(url));
    const lines = t.log.lines.join("\n");
    expect(lines).toContain("/partage/[masqué]");
    expect(lines).toContain("/api/shared/[masqué]");
    expect(lines).not.toContain(token);
  });

  test("an unknown or malformed token: 404 in French", async () => {
    const t = await sharingApp();
    for (const token of ["A".repeat(43), "court", "%00"]) {
      const res = await t.call("GET", `/api/shared/${token}`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe("Lien de partage introuvable.");
    }
  });
});

describe("the shared page /partage/{token}", () => {
  test("is the app's page with noindex in a header and a meta, no Referer, under the usual CSP", async () => {
    const t = await sharingApp();
    const { url } = (await share(t, { conversation_id: await answered(t) })).body;
    const res = await t.call("GET", pathOf(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow, noarchive");
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow, noarchive">');
    // The token is in the address: no Referer carries it to the sites an answer links to.
    expect(res.body).toContain('<meta name="referrer" content="no-referrer">');
    expect(res.body).toContain('<div id="root">');
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  test("an unknown, revoked or malformed link: a 404 page in French, noindex too", async () => {
    const t = await sharingApp();
    const link = (await share(t, { conversation_id: await answered(t) })).body;
    await t.call("DELETE", `/api/shares/${link.id}`, { token: t.token });
    for (const path of [pathOf(link.url), `/partage/${"A".repeat(43)}`, "/partage/court"]) {
      const res = await t.call("GET", path);
      expect(res.status).toBe(404);
      expect(res.body).toContain("Lien de partage introuvable");
      expect(res.headers.get("x-robots-tag")).toContain("noindex");
    }
  });
});

describe("the owner's links", () => {
  test("GET /api/shares lists them newest first, without the token", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const first = (await share(t, { conversation_id: id })).body;
    t.clock.advance(1000);
    const second = (await share(t, { conversation_id: id, include_models: true })).body;
    const res = await t.call("GET", "/api/shares", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.shares.map((s: { id: number }) => s.id)).toEqual([second.id, first.id]);
    expect(Object.keys(res.body.shares[0]).sort()).toEqual(["conversation_id", "created_at", "id", "include_models", "prefix", "title"]);
    const other = await makeUser(t.db, t.clock.now());
    expect((await t.call("GET", "/api/shares", { token: other.token })).body.shares).toEqual([]);
  });

  test("a revoked link: 404 at once", async () => {
    const t = await sharingApp();
    const link = (await share(t, { conversation_id: await answered(t) })).body;
    const res = await t.call("DELETE", `/api/shares/${link.id}`, { token: t.token });
    expect(res.status).toBe(200);
    expect((await visit(t, link.url)).status).toBe(404);
    expect((await t.call("GET", "/api/shares", { token: t.token })).body.shares).toEqual([]);
  });

  test("another user cannot revoke a link: 404 in French, the link still works", async () => {
    const t = await sharingApp();
    const link = (await share(t, { conversation_id: await answered(t) })).body;
    const other = await makeUser(t.db, t.clock.now());
    const res = await t.call("DELETE", `/api/shares/${link.id}`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Lien de partage introuvable.");
    expect((await visit(t, link.url)).status).toBe(200);
  });

  test("a deleted conversation takes its links with it: 404", async () => {
    const t = await sharingApp();
    const id = await answered(t);
    const link = (await share(t, { conversation_id: id })).body;
    expect((await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token })).status).toBe(200);
    expect((await visit(t, link.url)).status).toBe(404);
    expect(await t.db.select().from(sharedLinks)).toEqual([]);
  });

  test("the history marks shared conversations", async () => {
    const t = await sharingApp();
    const shared = await answered(t);
    t.clock.advance(1000);
    const plain = await answered(t, "Quelle est la capitale de l'Italie ?");
    await share(t, { conversation_id: shared });
    const list = (await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations;
    expect(list.map((c: { id: number; shared: boolean }) => [c.id, c.shared])).toEqual([
      [plain, false],
      [shared, true],
    ]);
    const found = (await t.call("GET", "/api/unisson/history?q=France", { token: t.token })).body.conversations;
    expect(found.find((c: { id: number }) => c.id === shared)?.shared).toBe(true);
  });

  test("the data export holds the links and their copies, never a token", async () => {
    const t = await sharingApp();
    const link = (await share(t, { conversation_id: await answered(t) })).body;
    const res = await t.call("GET", "/api/auth/export", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.shared_links).toHaveLength(1);
    expect(res.body.shared_links[0]).toMatchObject({ id: link.id, prefix: link.prefix, include_models: false });
    expect(res.body.shared_links[0].snapshot.turns[0].question).toBe("Quelle est la capitale de la France ?");
    expect(JSON.stringify(res.body)).not.toContain(pathOf(link.url).slice("/partage/".length));
  });

  test("deleting the account ends its links: 404", async () => {
    const t = await sharingApp();
    const link = (await share(t, { conversation_id: await answered(t) })).body;
    const res = await t.call("DELETE", "/api/auth/account", { token: t.token, json: { password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect((await visit(t, link.url)).status).toBe(404);
    expect(await t.db.select().from(sharedLinks)).toEqual([]);
  });
});
