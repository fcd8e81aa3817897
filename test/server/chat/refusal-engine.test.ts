import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import OpenAI from "openai";
import { aiCalls, conversations, messages } from "../../../src/db/schema/index.ts";
import { CORPUS, type Entry } from "../../fixtures/refusal-corpus/index.ts";
import type { FakeModel } from "../../fakes/ai/control.ts";
import { readSse } from "../../helpers/sse.ts";
import { apiApp, balance } from "../openai/openai.helpers.ts";
import { useFakeProviders } from "./chat.helpers.ts";

/**
 * A representative slice of the refusal corpus (test/fixtures/refusal-corpus)
 * through the engine: the fake providers answer corpus texts, and each of the
 * four channels (the page's /chat + /process, its live stream, /v1 chat
 * completions, /v1 Responses) stores and charges what the judgment decides.
 */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const MEMBERS: FakeModel[] = ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro", "mistralLarge", "sonarPro"];
/** Generous for a loaded box (a model silent for a third of it is abandoned): the first call of a process loads the SDKs, and these tests want every member's answer. */
const SLOW_BOX = { AI_TIMEOUT_MS: "30000" };

const find = (pred: (e: Entry) => boolean): string => {
  const e = CORPUS.find(pred);
  if (!e) throw new Error("no such corpus text");
  return e.text;
};
/** Useful answers 576edfd discarded: a hedge then the answer, a template, a translation, a dialogue, a code span. */
const USEFUL = [
  find((e) => e.category === "hedge" && e.text.startsWith("Je ne peux pas répondre à cette question sans plus d'informations, mais voici les trois")),
  find((e) => e.category === "hedge" && e.text.startsWith("Je ne peux pas répondre à cette question sans plus d'informations, mais voici ce qui")),
  find((e) => e.category === "translation" && e.text.startsWith("Voici la traduction en français")),
  find((e) => e.category === "dialogue" && e.text.startsWith("Dialogue :")),
  find((e) => e.category === "template" && e.text.startsWith("A template for turning down")),
  find((e) => e.category === "code" && e.text.startsWith("L'erreur `Je ne peux pas traiter")),
];
/** Refusals 576edfd kept: Spanish, German, Italian, Portuguese, Chinese, French in other words. */
const REFUSALS = [
  find((e) => e.label === "refusal" && e.lang === "es"),
  find((e) => e.label === "refusal" && e.lang === "de"),
  find((e) => e.label === "refusal" && e.lang === "it"),
  find((e) => e.label === "refusal" && e.lang === "pt"),
  find((e) => e.label === "refusal" && e.lang === "zh"),
  "Je préfère ne pas me prononcer sur ce sujet.",
];
const PARTIAL = find((e) => e.label === "partial");
/** The pre-filter finds it ambiguous: the clarifier's confirmation decides (its fake's rule: test/fakes/ai/refusal-judge.ts). */
const AMBIGUOUS_REFUSAL = find((e) => e.text.startsWith("Thanks for the detailed context."));

function answerWith(texts: readonly string[]) {
  for (const [i, m] of MEMBERS.entries()) fakes().control.set(m, { answer: texts[i % texts.length]! });
}

type T = Awaited<ReturnType<typeof apiApp>>;
type Outcome = { ok: boolean; status: number };

/** One question on a channel, as its client asks it. */
const CHANNELS: Record<string, (t: T) => Promise<Outcome>> = {
  "page /chat + /process": async (t) => {
    const id = (await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: QUESTION } })).body.conversation_id;
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    return { ok: res.status === 200, status: res.status };
  },
  "page live stream": async (t) => {
    const id = (await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: QUESTION } })).body.conversation_id;
    const res = await t.app.request("/api/unisson/process", {
      method: "POST",
      headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ conversation_id: id }),
    });
    const last = (await readSse(res)).events.at(-1)!;
    return { ok: last.event === "final", status: last.event === "final" ? 200 : 503 };
  },
  "/v1 chat completions": async (t) => {
    try {
      await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] });
      return { ok: true, status: 200 };
    } catch (e) {
      if (e instanceof OpenAI.APIError) return { ok: false, status: e.status };
      throw e;
    }
  },
  "/v1 Responses": async (t) => {
    try {
      await t.openai.responses.create({ model: "unisson", input: QUESTION });
      return { ok: true, status: 200 };
    } catch (e) {
      if (e instanceof OpenAI.APIError) return { ok: false, status: e.status };
      throw e;
    }
  },
};

/** The models' report of the user's stored answers (result_data.models), newest last. */
async function storedReports(t: T): Promise<Array<Array<{ name: string; status: string; error: string | null; partial_refusal?: true }>>> {
  const rows = await t.db
    .select({ data: messages.resultData })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(conversations.userId, t.user.id), eq(messages.messageType, "final_response")));
  return rows.map((r) => (r.data as { models: never }).models);
}

async function refusedCalls(t: T): Promise<number> {
  const rows = await t.db
    .select()
    .from(aiCalls)
    .where(and(eq(aiCalls.purpose, "answer"), eq(aiCalls.outcome, "refusal")));
  return rows.length;
}

describe.each(Object.keys(CHANNELS))("the refusal judgment through the engine: %s", (channel) => {
  const ask = CHANNELS[channel]!;

  test("every member answers in a way 576edfd took for a refusal (hedge, template, translation, dialogue, code): the answer is stored and charged", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith(USEFUL);
    expect(await ask(t)).toEqual({ ok: true, status: 200 });
    const [models] = await storedReports(t);
    expect(models!.filter((m) => m.status !== "answered").map((m) => [m.name, m.error])).toEqual([]);
    expect(await refusedCalls(t)).toBe(0);
    expect(await balance(t)).toBe(4);
  });

  test("every member refuses (es, de, it, pt, zh, fr in other words): nothing stored, nothing charged", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith(REFUSALS);
    const outcome = await ask(t);
    expect(outcome.ok).toBe(false);
    // The page: 503 COUNCIL_DECLINED, told as a refusal. /v1: a lasting failure, 400, which no client retries (failed-runs.ts).
    expect(outcome.status).toBe(channel.startsWith("/v1") ? 400 : 503);
    expect(await storedReports(t)).toEqual([]);
    expect(await refusedCalls(t)).toBeGreaterThanOrEqual(6);
    expect(await balance(t)).toBe(5);
  });

  test("two members refuse, four answer: the two are named as refusals, the four answers make the stored, charged answer", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith([REFUSALS[0]!, REFUSALS[4]!, ...USEFUL.slice(0, 4)]);
    expect((await ask(t)).ok).toBe(true);
    const [models] = await storedReports(t);
    expect(models!.filter((m) => m.status === "failed").map((m) => [m.name, m.error])).toEqual([
      ["GPT-4", "refus du modèle"],
      ["Claude Opus 4.1", "refus du modèle"],
    ]);
    expect(await balance(t)).toBe(4);
  });
});

describe("the judgment's other stages through the page's /process", () => {
  const ask = CHANNELS["page /chat + /process"]!;

  test("a partial refusal is kept and marked in the stored answer (partial_refusal)", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith([PARTIAL, ...USEFUL.slice(0, 5)]);
    expect((await ask(t)).ok).toBe(true);
    const [models] = await storedReports(t);
    expect(models!.find((m) => m.name === "GPT-4")).toMatchObject({ status: "answered", partial_refusal: true });
    expect(models!.filter((m) => m.partial_refusal)).toHaveLength(1);
  });

  test("an ambiguous text goes to the clarifier's confirmation, which finds it a refusal: not counted, the check logged", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith([AMBIGUOUS_REFUSAL, ...USEFUL.slice(0, 5)]);
    expect((await ask(t)).ok).toBe(true);
    const checks = fakes().control.callsOf("refusal_check");
    expect(checks.map((c) => c.model)).toEqual(["claudeHaiku"]);
    expect(checks[0]!.messages[0]!.content).toContain("Thanks for the detailed context.");
    const [models] = await storedReports(t);
    expect(models!.find((m) => m.name === "GPT-4")).toMatchObject({ status: "failed", error: "refus du modèle" });
    expect(await t.db.select().from(aiCalls).where(eq(aiCalls.purpose, "refusal_check"))).toHaveLength(1);
  });

  test("the confirmation fails (its model down): fail safe, the ambiguous answer is kept", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith([AMBIGUOUS_REFUSAL, ...USEFUL.slice(0, 5)]);
    fakes().control.set("claudeHaiku", { fail: 500, failOn: ["refusal_check"] });
    expect((await ask(t)).ok).toBe(true);
    const [models] = await storedReports(t);
    expect(models!.find((m) => m.name === "GPT-4")).toMatchObject({ status: "answered" });
  });

  test("the confirmation hangs: its own deadline ends it, the ambiguous answer is kept and the check logged as a timeout", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith([AMBIGUOUS_REFUSAL, ...USEFUL.slice(0, 5)]);
    fakes().control.set("claudeHaiku", { fail: "hang", failOn: ["refusal_check"] });
    expect((await ask(t)).ok).toBe(true);
    const [models] = await storedReports(t);
    expect(models!.find((m) => m.name === "GPT-4")).toMatchObject({ status: "answered" });
    const [check] = await t.db.select().from(aiCalls).where(eq(aiCalls.purpose, "refusal_check"));
    expect(check!.outcome).toBe("timeout");
  });

  test("a clear refusal or a clear answer costs no confirmation", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    answerWith([...REFUSALS.slice(0, 2), ...USEFUL.slice(0, 4)]);
    expect((await ask(t)).ok).toBe(true);
    expect(fakes().control.callsOf("refusal_check")).toEqual([]);
  });

  test("a synthesiser that refuses inside the three sections is not stored: the next one writes the synthesis", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    const refusal = find((e) => e.kind === "synthesis" && e.text.includes("Je préfère ne pas répondre à cette question."));
    const fallback = fakes().control.synthesis;
    fakes().control.synthesis = (prompt, model) => (model === "claudeOpus" ? refusal : fallback(prompt, model));
    expect((await ask(t)).ok).toBe(true);
    const [row] = await t.db.select({ data: messages.resultData }).from(messages).where(eq(messages.messageType, "final_response"));
    const data = row!.data as { primary_ai: string; synthesis: { attempts: unknown[] } };
    expect(data.synthesis.attempts).toEqual([{ name: "Claude Opus 4.1", error: "refus du modèle" }]);
    expect(data.primary_ai).not.toBe("Claude Opus 4.1");
  });

  test("a synthesis reporting in « Divergences » that a member declined is stored", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    const reported = find((e) => e.kind === "synthesis" && e.label === "answer" && e.text.includes("La réponse C a répondu : Je ne peux pas"));
    fakes().control.synthesis = () => reported;
    expect((await ask(t)).ok).toBe(true);
    const [row] = await t.db.select({ data: messages.resultData }).from(messages).where(eq(messages.messageType, "final_response"));
    expect((row!.data as { primary_ai: string }).primary_ai).toBe("Claude Opus 4.1");
  });
});

describe("a refusal inside a /v1 JSON answer", () => {
  test("response_format json_object: the synthesiser's JSON refusal is not the answer, the next synthesiser's JSON is", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX });
    fakes().control.synthesis = (_prompt, model) =>
      model === "claudeOpus" ? '{"reponse":"Je suis désolé, mais je ne peux pas vous aider avec cette demande."}' : '{"reponse":"Paris"}';
    const res = await t.openai.chat.completions.create({
      model: "unisson",
      messages: [{ role: "user", content: QUESTION }],
      response_format: { type: "json_object" },
    });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ reponse: "Paris" });
    expect(await balance(t)).toBe(4);
  });
});
