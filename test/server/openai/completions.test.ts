import { and, eq, inArray } from "drizzle-orm";
import { aiCalls } from "../../../src/db/schema/index.ts";
import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError, balance } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";

describe("/v1 through the official openai client", () => {
  test("the model list has one model: unisson", async () => {
    const t = await apiApp(fakes());
    const page = await t.openai.models.list();
    expect(page.data.map((m) => m.id)).toEqual(["unisson"]);
    expect((await t.openai.models.retrieve("unisson")).owned_by).toBe("unisson");
  });

  test("a plain completion: the consolidated text, stop, usage over every call, one request charged, in the history as API", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] });
    expect(res.object).toBe("chat.completion");
    expect(res.id).toMatch(/^chatcmpl-/);
    expect(res.created).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(res.choices[0]!.finish_reason).toBe("stop");
    expect(res.choices[0]!.message.content).toContain("## Points de consensus");
    const stored = (
      await t.db
        .select({ i: aiCalls.tokensIn, o: aiCalls.tokensOut })
        .from(aiCalls)
        .where(and(inArray(aiCalls.purpose, ["answer", "synthesis"]), eq(aiCalls.outcome, "ok")))
    ).map((c) => ({ i: c.i ?? 0, o: c.o ?? 0 }));
    expect(stored).toHaveLength(7);
    expect(res.usage).toEqual({
      prompt_tokens: stored.reduce((n, c) => n + c.i, 0),
      completion_tokens: stored.reduce((n, c) => n + c.o, 0),
      total_tokens: stored.reduce((n, c) => n + c.i + c.o, 0),
    });
    expect(res.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(await balance(t)).toBe(before - 1);

    const history = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(history.body.conversations).toHaveLength(1);
    expect(history.body.conversations[0].source).toBe("api");
    const conv = await t.call("GET", `/api/unisson/conversation/${history.body.conversations[0].id}`, { token: t.token });
    expect(conv.body.messages.map((m: { content: string }) => m.content)).toEqual([QUESTION, res.choices[0]!.message.content]);
  });

  test("the unisson object names the models that answered, the synthesiser, and a failing model with its reason", async () => {
    const t = await apiApp(fakes());
    fakes().control.set("mistralLarge", { fail: 500, failOn: ["answer"] });
    const res = (await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] })) as unknown as {
      unisson: { models: string[]; missing: Array<{ model: string; reason: string }>; synthesiser: string };
    };
    expect(res.unisson.models).toHaveLength(5);
    expect(res.unisson.models).not.toContain("Mistral Large");
    expect(res.unisson.missing).toHaveLength(1);
    expect(res.unisson.missing[0]!.model).toBe("Mistral Large");
    expect(res.unisson.missing[0]!.reason.length).toBeGreaterThan(0);
    expect(res.unisson.synthesiser).toBe("Claude Opus 4.1");
  });

  test("earlier messages are the context; the clarifying pre-pass is skipped", async () => {
    const t = await apiApp(fakes());
    fakes().control.clarify(["Pour quel pays ?"]);
    await t.openai.chat.completions.create({
      model: "unisson",
      messages: [
        { role: "system", content: "Tu es un assistant." },
        { role: "user", content: "Parlons de la France." },
        { role: "assistant", content: "Volontiers." },
        { role: "user", content: QUESTION },
      ],
    });
    expect(fakes().control.callsOf("clarification")).toHaveLength(0);
    const [answer] = fakes().control.callsOf("answer", "gpt4");
    expect(answer!.messages.map((m) => m.content)).toEqual(["Parlons de la France.", "Volontiers.", QUESTION]);
  });

  test("streamed: chunks carry the synthesis, then stop and [DONE]; the text is the stored answer", async () => {
    const t = await apiApp(fakes());
    const raw = await fetch(`${t.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "unisson", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: QUESTION }] }),
    });
    expect(raw.headers.get("content-type")).toContain("text/event-stream");
    const body = await raw.text();
    expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);

    const stream = await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: "Et celle de l'Italie ?" }] });
    let text = "";
    const finishes: Array<string | null> = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      text += chunk.choices[0]?.delta.content ?? "";
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(finishes.at(-1)).toBe("stop");
    const history = await t.call("GET", "/api/unisson/history", { token: t.token });
    const latest = await t.call("GET", `/api/unisson/conversation/${history.body.conversations[0].id}`, { token: t.token });
    expect(text).toBe(latest.body.messages.at(-1).content);
    expect(await balance(t)).toBe(3);
  });

  test("a revoked key: 401 in OpenAI's shape, in French", async () => {
    const t = await apiApp(fakes());
    await t.call("DELETE", `/api/auth/api-keys/${t.keyId}`, { token: t.token });
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }));
    expect(err.status).toBe(401);
    expect(err.error).toEqual({
      message: "Clé d'API invalide ou révoquée. Créez une clé dans « Mon abonnement » sur Unisson.",
      type: "invalid_request_error",
      code: "invalid_api_key",
      param: null,
    });
  });

  test("the quota spent: 402 insufficient_quota with the plan's text, nothing charged, nothing asked", async () => {
    const t = await apiApp(fakes(), { user: { subscriptionType: "basic", planQueries: 0 } });
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }));
    expect(err.status).toBe(402);
    expect(err.code).toBe("insufficient_quota");
    expect(err.type).toBe("insufficient_quota");
    expect(err.message).toContain("Vous avez utilisé toutes vos requêtes Basic ce mois-ci.");
    expect(err.headers?.get("x-should-retry")).toBe("false");
    expect(await balance(t)).toBe(0);
    expect(fakes().control.callsOf("answer")).toHaveLength(0);
  });

  test("the official client does not retry a spent quota (x-should-retry: false), even with retries on", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 0 } });
    const retrying = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, maxRetries: 2 });
    const err = await apiError(retrying.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }));
    expect(err.code).toBe("insufficient_quota");
    expect(t.log.lines.filter((l) => l.includes("/v1/chat/completions"))).toHaveLength(1);
  });

  test("the quota spent, streamed: the same 402 before any event", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 0 } });
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] }));
    expect(err.status).toBe(402);
    expect(err.code).toBe("insufficient_quota");
  });

  test("two completions racing on one remaining request: one answered, one 402, one request spent", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 1 } });
    fakes().control.setAll({ latencyMs: 100 });
    // Two different questions: identical ones would be one question, joined (retries.test.ts).
    const ask = (content: string) =>
      t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content }] }).then(
        () => "ok",
        (e) => (e instanceof OpenAI.APIError ? `${e.status} ${e.code}` : String(e)),
      );
    const outcomes = await Promise.all([ask(QUESTION), ask("Quelle est la capitale de l'Italie ?")]);
    expect(outcomes.sort()).toEqual(["402 insufficient_quota", "ok"]);
    expect(await balance(t)).toBe(0);
  });

  test("a refused question: 400 content_policy_violation, nothing charged, nothing kept in the history", async () => {
    const t = await apiApp(fakes());
    fakes().control.moderation = { flagged: true, categories: ["violence"] };
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }));
    expect(err.status).toBe(400);
    expect(err.code).toBe("content_policy_violation");
    expect(err.message).toContain("enfreint nos règles d'utilisation");
    expect(await balance(t)).toBe(5);
    const history = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(history.body.conversations).toEqual([]);
  });

  test("a body over the 4 MiB of a thread without files: 413 in French before anything is parsed, nothing charged", async () => {
    const t = await apiApp(fakes());
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: "a".repeat(4 * 1024 * 1024 + 1) }] }));
    expect(err.status).toBe(413);
    expect(err.message).toContain("Requête trop volumineuse : la conversation envoyée dépasse 4 Mio.");
    expect(await balance(t)).toBe(5);
  });

  test("an invalid request: 400 in French (unknown model, last message not the user's)", async () => {
    const t = await apiApp(fakes());
    const model = await apiError(t.openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: QUESTION }] }));
    expect(model.status).toBe(400);
    expect(model.code).toBe("model_not_found");
    expect(model.error).toMatchObject({ message: "Modèle inconnu : utilisez le modèle « unisson »." });
    const last = await apiError(
      t.openai.chat.completions.create({
        model: "unisson",
        messages: [
          { role: "user", content: QUESTION },
          { role: "assistant", content: "Paris." },
        ],
      }),
    );
    expect(last.status).toBe(400);
    expect(last.message).toContain("Le dernier message doit être un message de l'utilisateur");
  });

  test("fewer than 2 models available: 503 with the maintenance text, nothing charged", async () => {
    const t = await apiApp(fakes(), { env: { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GOOGLE_API_KEY: "", MISTRAL_API_KEY: "" } });
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }));
    expect(err.status).toBe(503);
    expect(err.message).toContain("il nécessite au moins 2 IA disponibles");
    expect(await balance(t)).toBe(5);
  });

  test("too few answers: 503, the request refunded", async () => {
    const t = await apiApp(fakes());
    fakes().control.setAll({ fail: 500, failOn: ["answer"] });
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }));
    expect(err.status).toBe(503);
    expect(err.message).toContain("Votre requête n'a pas été décomptée");
    expect(await balance(t)).toBe(5);
  });

  test("a burst (10 a minute per user): 429 rate_limit_exceeded with retry-after", async () => {
    const t = await apiApp(fakes(), { user: { subscriptionType: "pro", planQueries: 100 } });
    const post = () =>
      fetch(`${t.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }),
      });
    for (let i = 0; i < 10; i++) expect((await post()).status).toBe(200);
    const res = await post();
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("rate_limit_exceeded");
    expect(json.error.message).toContain("Trop de requêtes avec cette clé d'API");
    expect(await balance(t)).toBe(90);
  });

  test("a client gone before its run starts: nothing stored or charged, and no error logged", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    const gone = new AbortController();
    gone.abort();
    const res = await t.app.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "unisson", messages: [{ role: "user", content: "Quelle est la capitale de la France ?" }] }),
      signal: gone.signal,
    });
    expect(res.status).toBe(499);
    expect(t.log.lines.filter((l) => l.includes("ERROR"))).toEqual([]);
    expect(await balance(t)).toBe(before);
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
  });

  test("an unknown /v1 path: 404 in OpenAI's shape", async () => {
    const t = await apiApp(fakes());
    const res = await fetch(`${t.url}/v1/embeddings`, { method: "POST", headers: { authorization: `Bearer ${t.key}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unknown_url");
  });
});
