import { describe, expect, test } from "bun:test";
import { DAY } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const CHAT = "/api/unisson/chat";

describe("POST /api/unisson/chat: message types", () => {
  test("a clear question needs final processing and is stored as the user's message", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(200);
    expect(res.body.needs_clarification).toBe(false);
    expect(res.body.requires_final_processing).toBe(true);
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0]).toMatchObject({ sender: "user", message_type: null, content: "Quelle est la capitale de la France ?", result_data: null });
    expect(typeof res.body.messages[0].timestamp).toBe("string");
  });

  test("several clarifying questions make a `clarification` message", async () => {
    const t = await chatApp(fakes());
    fakes().control.clarify(["Pour quel pays ?", "Pour quelle année ?"]);
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quel est le taux d'imposition ?" } });
    expect(res.body.needs_clarification).toBe(true);
    expect(res.body.requires_final_processing).toBe(false);
    const asked = res.body.messages.at(-1);
    expect(asked).toMatchObject({ sender: "assistant", message_type: "clarification" });
    expect(asked.content).toContain("1. Pour quel pays ?");
    expect(asked.result_data.questions).toEqual(["Pour quel pays ?", "Pour quelle année ?"]);
  });

  test("a single clarifying question makes a `mono_clarification` message", async () => {
    const t = await chatApp(fakes());
    fakes().control.clarify(["Pour quel pays ?"]);
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quel est le taux d'imposition ?" } });
    expect(res.body.messages.at(-1)).toMatchObject({ message_type: "mono_clarification", content: "Pour quel pays ?" });
  });

  test("the clarification pre-pass goes to Claude 3 Haiku", async () => {
    const t = await chatApp(fakes());
    await t.call("POST", CHAT, { token: t.token, json: { message: "Quel est le taux d'imposition ?" } });
    expect(
      fakes()
        .control.callsOf("clarification")
        .map((c) => c.model),
    ).toEqual(["claudeHaiku"]);
  });

  test("a reply to a clarification always leads to final processing, with no second round", async () => {
    const t = await chatApp(fakes());
    fakes().control.clarify(["Pour quel pays ?"]);
    const first = await t.call("POST", CHAT, { token: t.token, json: { message: "Quel est le taux d'imposition ?" } });
    const reply = await t.call("POST", CHAT, { token: t.token, json: { conversation_id: first.body.conversation_id, message: "La France" } });
    expect(reply.body.needs_clarification).toBe(false);
    expect(reply.body.requires_final_processing).toBe(true);
    expect(fakes().control.callsOf("clarification")).toHaveLength(1);
  });

  test("final processing of a clarified question sends the question, the question asked back and the reply", async () => {
    const t = await chatApp(fakes());
    fakes().control.clarify(["Pour quel pays ?"]);
    const first = await t.call("POST", CHAT, { token: t.token, json: { message: "Quel est le taux d'imposition ?" } });
    const id = first.body.conversation_id;
    await t.call("POST", CHAT, { token: t.token, json: { conversation_id: id, message: "La France" } });
    await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    const sent = fakes().control.callsOf("answer", "gpt4")[0]!.messages.at(-1)!.content;
    expect(sent).toContain("Question initiale : Quel est le taux d'imposition ?");
    expect(sent).toContain("Question posée à l'utilisateur : Pour quel pays ?");
    expect(sent).toContain("Précision de l'utilisateur : La France");
  });

  test("an unreadable clarification verdict does not block the question", async () => {
    const t = await chatApp(fakes());
    fakes().control.clarification = "Je pense que oui, peut-être.";
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quel est le taux d'imposition ?" } });
    expect(res.body.requires_final_processing).toBe(true);
  });

  test("a too vague message gets a `detail_request` and costs nothing", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "bonjour" } });
    expect(res.status).toBe(200);
    expect(res.body.requires_final_processing).toBe(false);
    expect(res.body.needs_clarification).toBe(false);
    expect(res.body.messages.at(-1)).toMatchObject({ sender: "assistant", message_type: "detail_request" });
    expect(fakes().control.callsOf("clarification")).toHaveLength(0);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });

  test("OpenAI moderation flags a message: stored `content_moderation` message and 400 in French", async () => {
    const t = await chatApp(fakes());
    fakes().control.moderation = { flagged: true, categories: ["violence"] };
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Un message que la modération refuse ici." } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("Unisson fournit des informations utiles et constructives");
    const history = await t.call("GET", "/api/unisson/history", { token: t.token });
    const conv = await t.call("GET", `/api/unisson/conversation/${history.body.conversations[0].id}`, { token: t.token });
    expect(conv.body.messages.map((m: { message_type: string | null }) => m.message_type)).toEqual([null, "content_moderation"]);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });

  test("without an OpenAI key the local rule list moderates", async () => {
    const t = await chatApp(fakes(), { env: { OPENAI_API_KEY: "" } });
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Comment fabriquer une bombe artisanale chez moi ?" } });
    expect(res.status).toBe(400);
    expect(fakes().control.calls).toHaveLength(0);
  });

  test("the local rules let an honest question about a hard subject through", async () => {
    const t = await chatApp(fakes(), { env: { OPENAI_API_KEY: "" } });
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est l'histoire de la bombe atomique ?" } });
    expect(res.status).toBe(200);
  });
});

describe("POST /api/unisson/chat: errors of docs/PRODUCT.md#errors", () => {
  test("a blank message: 400 in French, nothing stored", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "   \n " } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le message ne peut pas être vide.");
    const history = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(history.body.conversations).toEqual([]);
  });

  test("a message over 8000 characters: 400 in French", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "a ".repeat(4001) } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le message est trop long (8000 caractères au plus).");
  });

  test("without a session: 401", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("POST", CHAT, { json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(401);
  });

  test("a trial with its 5 requests used: 402 with the trial text", async () => {
    const t = await chatApp(fakes(), { user: { planQueries: 0 } });
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(402);
    expect(res.body.detail).toBe("Vous avez utilisé vos 5 requêtes gratuites. Choisissez un forfait payant pour continuer.");
  });

  test("a trial past its 7 days: 402 with the trial-ended text", async () => {
    const t = await chatApp(fakes());
    t.clock.advance(8 * DAY);
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(402);
    expect(res.body.detail).toContain("essai gratuit de 7 jours est terminé");
  });

  test("a basic user with no request left: 402 suggesting Pro or a pack", async () => {
    const t = await chatApp(fakes(), { user: { subscriptionType: "basic", planQueries: 0 } });
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(402);
    expect(res.body.detail).toContain("Passez au forfait Pro ou achetez un pack");
  });

  test("a pro user with no request left: 402 suggesting a pack", async () => {
    const t = await chatApp(fakes(), { user: { subscriptionType: "pro", planQueries: 0 } });
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(402);
    expect(res.body.detail).toBe("Vous avez utilisé toutes vos requêtes Pro ce mois-ci. Achetez un pack de requêtes pour continuer.");
  });

  test("an expired account: 402, and nothing is charged", async () => {
    const t = await chatApp(fakes(), { user: { subscriptionType: "expired", planQueries: 0, extraQueries: 3 } });
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(402);
    expect(await remaining(t)).toEqual({ plan: 0, extra: 3 });
  });

  test("no AI key at all: 503 with the maintenance text", async () => {
    const t = await createTestApp();
    const { token } = await makeUser(t.db, t.clock.now());
    const res = await t.call("POST", CHAT, { token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe("Le système est en maintenance : il nécessite au moins 2 IA disponibles. Veuillez réessayer plus tard.");
  });

  test("only one model configured: still maintenance", async () => {
    const { env } = fakes();
    const t = await createTestApp({ env: { GOOGLE_API_KEY: env.GOOGLE_API_KEY, GOOGLE_BASE_URL: env.GOOGLE_BASE_URL } });
    const { token } = await makeUser(t.db, t.clock.now());
    const res = await t.call("POST", CHAT, { token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(503);
  });

  test("two models configured are enough", async () => {
    const { env } = fakes();
    const t = await createTestApp({ env: { ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL: env.ANTHROPIC_BASE_URL } });
    const { token } = await makeUser(t.db, t.clock.now());
    const res = await t.call("POST", CHAT, { token, json: { message: "Quelle est la capitale de la France ?" } });
    expect(res.status).toBe(200);
    const processed = await t.call("POST", "/api/unisson/process", { token, json: { conversation_id: res.body.conversation_id } });
    expect(processed.body.available_ais.sort()).toEqual(["Claude 3 Haiku", "Claude Opus 4.1"]);
  });
});
