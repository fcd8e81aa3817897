import { describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { attachments } from "../../../src/db/schema/index.ts";
import { png } from "../../helpers/attachment-files.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const ask = [{ role: "user" as const, content: QUESTION }];
type App = Awaited<ReturnType<typeof apiApp>>;

/** An app whose answers take about 6 s: 5 s for the models (well under its stall limit, a third of 30 s), 1 s for the synthesis. */
async function slowApp(): Promise<App> {
  const t = await apiApp(fakes(), { env: { AI_TIMEOUT_MS: "30000" } });
  // Warmed up first (then forgotten): the first answer of a process loads the providers' code, seconds on a busy machine, which the 6 s must not include.
  const warm = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: "Échauffement ?" }] });
  await t.call("DELETE", `/api/unisson/conversation/${(warm as unknown as { unisson: { conversation_id: number } }).unisson.conversation_id}`, {
    token: t.token,
  });
  fakes().control.calls = [];
  fakes().control.setAll({ latencyMs: 5_000, synthesisLatencyMs: 1_000 });
  return t;
}

async function conversations(t: App): Promise<Array<{ id: number }>> {
  return (await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations;
}

async function storedAnswer(t: App, id: number): Promise<string | undefined> {
  const conv = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
  const last = conv.body.messages.at(-1);
  return last?.sender === "assistant" ? last.content : undefined;
}

/**
 * Asks, and leaves once the run has started (charged), before its answer: a
 * fixed 100 ms could end before a loaded server even began the run, which
 * then never existed (the tests waited for it until their timeout). The
 * client's error (the abort).
 */
async function leaveOnceStarted(t: App): Promise<unknown> {
  const before = await balance(t);
  const leave = new AbortController();
  const gone = post(t, { model: "unisson", messages: ask }, {}, leave.signal).catch((e) => e);
  while ((await balance(t)) === before) await Bun.sleep(20);
  leave.abort();
  return await gone;
}

function post(t: App, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${t.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

describe("/v1: one run per question however often the client retries", () => {
  test("a client with a 2 s timeout and 3 retries against 6 s answers: one answer, one conversation, one charge", async () => {
    const t = await slowApp();
    const before = await balance(t);
    const impatient = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, timeout: 2_000, maxRetries: 3 });
    const res = await impatient.chat.completions.create({ model: "unisson", messages: ask });
    expect(t.log.lines.filter((l) => l.includes("/v1/chat/completions")).length).toBeGreaterThan(1);
    const [conv, ...others] = await conversations(t);
    expect(others).toEqual([]);
    expect(res.choices[0]!.message.content).toBe((await storedAnswer(t, conv!.id))!);
    expect(await balance(t)).toBe(before - 1);
    expect(fakes().control.callsOf("answer")).toHaveLength(6);
  }, 30_000);

  test("streamed, the same: the retry streams the answer of the run already going", async () => {
    const t = await slowApp();
    const before = await balance(t);
    const impatient = new OpenAI({ apiKey: t.key, baseURL: `${t.url}/v1`, timeout: 2_000, maxRetries: 3 });
    // The stream opens once the run started: an attempt timing out before that byte is retried, and the retry joins the run.
    const stream = await impatient.chat.completions.create({ model: "unisson", stream: true, messages: ask });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    const [conv, ...others] = await conversations(t);
    expect(others).toEqual([]);
    expect(text).toBe((await storedAnswer(t, conv!.id))!);
    expect(await balance(t)).toBe(before - 1);
  }, 30_000);

  test("a client gone before the answer was stored gets it by asking again, with no second run", async () => {
    const t = await apiApp(fakes());
    fakes().control.setAll({ latencyMs: 1_000 }); // the client leaves within it (leaveOnceStarted)
    const gone = await leaveOnceStarted(t);
    expect(gone).toBeInstanceOf(Error);
    let stored: string | undefined;
    while (!stored) {
      await Bun.sleep(100);
      const [conv] = await conversations(t);
      stored = conv && (await storedAnswer(t, conv.id));
    }
    const again = await t.openai.chat.completions.create({ model: "unisson", messages: ask });
    expect(again.choices[0]!.message.content).toBe(stored);
    expect(await conversations(t)).toHaveLength(1);
    expect(fakes().control.callsOf("answer")).toHaveLength(6);
    expect(await balance(t)).toBe(4);
  });

  test("an answer not delivered but finished more than 10 minutes ago: the same question is a new question", async () => {
    const t = await apiApp(fakes());
    fakes().control.setAll({ latencyMs: 1_000 }); // the client leaves within it (leaveOnceStarted)
    await leaveOnceStarted(t);
    while (!(await storedAnswer(t, (await conversations(t))[0]!.id))) await Bun.sleep(100);
    t.clock.advance(10 * 60_000 + 1);
    await t.openai.chat.completions.create({ model: "unisson", messages: ask });
    expect(await conversations(t)).toHaveLength(2);
    expect(await balance(t)).toBe(3);
  });

  test("two identical requests at once: one run, both get its answer, one charge", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 1 } });
    fakes().control.setAll({ latencyMs: 200 });
    const [a, b] = await Promise.all([1, 2].map(() => t.openai.chat.completions.create({ model: "unisson", messages: ask })));
    expect(a!.choices[0]!.message.content).toBe(b!.choices[0]!.message.content!);
    expect(await conversations(t)).toHaveLength(1);
    expect(await balance(t)).toBe(0);
  });

  test("two identical requests with a picture at once: one run, and the loser's stored copy of the picture is not left behind", async () => {
    // 30 s per model (stalls after 10 s): the 3 s before the first token is well within it.
    const t = await apiApp(fakes(), { env: { AI_TIMEOUT_MS: "30000" } });
    // The first run still going when the second request, slowed by reading its picture, stores its question.
    fakes().control.setAll({ latencyMs: 3_000 });
    const picture = `data:image/png;base64,${Buffer.from(await png(1200, 800)).toString("base64")}`;
    const withPicture = [
      {
        role: "user" as const,
        content: [
          { type: "text" as const, text: QUESTION },
          { type: "image_url" as const, image_url: { url: picture } },
        ],
      },
    ];
    await Promise.all([1, 2].map(() => t.openai.chat.completions.create({ model: "unisson", messages: withPicture })));
    expect(await conversations(t)).toHaveLength(1);
    expect(await t.db.select({ id: attachments.id, messageId: attachments.messageId }).from(attachments)).toEqual([
      { id: expect.any(Number), messageId: expect.any(Number) },
    ]);
  }, 30_000);

  test("joining is per API key: the same question from another key of the user is another question", async () => {
    const t = await apiApp(fakes());
    fakes().control.setAll({ latencyMs: 300 });
    const other = await t.call("POST", "/api/auth/api-keys", { token: t.token, json: { name: "Autre" } });
    await Promise.all([t.openai, t.client(other.body.secret)].map((c) => c.chat.completions.create({ model: "unisson", messages: ask })));
    expect(await conversations(t)).toHaveLength(2);
    expect(await balance(t)).toBe(3);
  });

  test("joining is per API key: another user's identical question while the first run is live gets its own answer, not the first one's", async () => {
    const t = await apiApp(fakes());
    fakes().control.setAll({ latencyMs: 1_000 });
    const other = await makeUser(t.db, t.clock.now());
    const key = await t.call("POST", "/api/auth/api-keys", { token: other.token, json: { name: "Autre" } });
    const first = t.openai.chat.completions.create({ model: "unisson", messages: ask });
    // The first run is live (charged) before the other user asks.
    while ((await balance(t)) === 5) await Bun.sleep(20);
    const theirs = await t.client(key.body.secret).chat.completions.create({ model: "unisson", messages: ask });
    expect(theirs.choices[0]!.message.content).toContain("## Réponse consolidée");
    await first;
    expect(await conversations(t)).toHaveLength(1);
    expect((await t.call("GET", "/api/unisson/history", { token: other.token })).body.conversations).toHaveLength(1);
  });

  test("an answer delivered: the same question again is a new question, charged again", async () => {
    const t = await apiApp(fakes());
    await t.openai.chat.completions.create({ model: "unisson", messages: ask });
    await t.openai.chat.completions.create({ model: "unisson", messages: ask });
    expect(await conversations(t)).toHaveLength(2);
    expect(await balance(t)).toBe(3);
  });

  test("Idempotency-Key decides: the same key joins even after delivery, different keys are different questions", async () => {
    const t = await apiApp(fakes());
    const body = { model: "unisson", messages: ask };
    const first = (await (await post(t, body, { "idempotency-key": "q-1" })).json()) as { choices: Array<{ message: { content: string } }> };
    const again = (await (await post(t, body, { "idempotency-key": "q-1" })).json()) as typeof first;
    expect(again.choices[0]!.message.content).toBe(first.choices[0]!.message.content);
    expect(await conversations(t)).toHaveLength(1);
    expect((await post(t, body, { "idempotency-key": "q-2" })).status).toBe(200);
    expect(await conversations(t)).toHaveLength(2);
    expect(await balance(t)).toBe(3);
  });

  test("an Idempotency-Key sent again with another question: 400, nothing stored or charged", async () => {
    const t = await apiApp(fakes());
    expect((await post(t, { model: "unisson", messages: ask }, { "idempotency-key": "q-1" })).status).toBe(200);
    const other = await post(t, { model: "unisson", messages: [{ role: "user", content: "Et l'Italie ?" }] }, { "idempotency-key": "q-1" });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain("Idempotency-Key a déjà servi");
    expect(await conversations(t)).toHaveLength(1);
    expect(await balance(t)).toBe(4);
  });

  test("a retry does not count against the key's burst limit", async () => {
    const t = await apiApp(fakes(), { user: { subscriptionType: "pro", planQueries: 100 } });
    fakes().control.setAll({ latencyMs: 1_500 });
    for (let i = 0; i < 12; i++) {
      const gone = await post(t, { model: "unisson", messages: ask }, {}, AbortSignal.timeout(150)).catch((e) => e);
      expect(gone).toBeInstanceOf(Error);
    }
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: ask });
    expect(res.choices[0]!.message.content).toContain("## Réponse consolidée");
    expect(await conversations(t)).toHaveLength(1);
    expect(await balance(t)).toBe(99);
  });
});
