import { describe, expect, test } from "bun:test";
import type OpenAI from "openai";
import { readSse } from "../../helpers/sse.ts";
import { apiApp, balance } from "../openai/openai.helpers.ts";
import { askReady, type ChatApp, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";
const process = (t: ChatApp, id: number) => t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
const QUESTION = "Quelle est la capitale de la France ?";
/** A generous timeout (its stall limit is a third of it): a loaded box's first call of a process must not stall out. */
const SLOW_BOX = { AI_TIMEOUT_MS: "9000" };

/** A synthesis that ends normally (finish `stop`) with none of the required sections. */
const NO_SECTIONS = "L'inflation est due à la hausse des prix de l'énergie et à la reprise de la demande.";
const REFUSAL_OTHER_WORDS = "Malheureusement, il ne m'est pas possible de rédiger cette synthèse.";
const LONG_REFUSAL = `Je ne peux pas rédiger cette synthèse. ${"Les réponses transmises mêlent des affirmations que je ne suis pas en mesure de vérifier, et les reprendre ici reviendrait à les présenter comme établies. ".repeat(6)}`;
const MODEL_REFUSAL = "Malheureusement, je ne peux pas vous aider avec cette demande.";

/** Every synthesiser writes `text` except `good` (if given), which writes the default synthesis. */
function synthesisers(text: string, good?: string) {
  const fallback = fakes().control.synthesis;
  fakes().control.synthesis = (prompt, model) => (model === good ? fallback(prompt, model) : text);
}

async function streamProcess(t: ChatApp, id: number) {
  const res = await t.app.request(PROCESS, {
    method: "POST",
    headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ conversation_id: id }),
  });
  return (await readSse(res)).events;
}

async function readStream(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  return text;
}

describe("an answer is what the product promised: /process JSON", () => {
  test("a synthesis without the required sections is not stored: the next synthesiser writes it", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    synthesisers(NO_SECTIONS, "gpt4");
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(200);
    expect(res.body.primary_ai).toBe("GPT-4");
    expect(res.body.final_response).not.toContain("L'inflation est due");
    expect(res.body.message.result_data.synthesis.attempts).toEqual([{ name: "Claude Opus 4.1", error: "synthèse sans la structure demandée" }]);
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });

  test("no synthesiser writes the sections: the run fails, nothing is stored, the request is refunded", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    synthesisers(NO_SECTIONS);
    const id = await askReady(t);
    const res = await process(t, id);
    expect(res.status).toBe(503);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    const conv = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(conv.body.messages.some((m: { message_type: string | null }) => m.message_type === "final_response")).toBe(false);
  });

  test("sections out of order, or one left empty, are not the structure asked for", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const texts = [
      "## Points de consensus\nParis.\n## Réponse consolidée\nParis.\n## Divergences\nAucune divergence notable.",
      "## Réponse consolidée\nParis.\n## Points de consensus\n\n## Divergences\nAucune divergence notable.",
    ];
    fakes().control.synthesis = (_prompt, model) => (model === "claudeOpus" ? texts[0]! : texts[1]!);
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(503);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });

  test("a refusal in other words is not stored: « Malheureusement, il ne m'est pas possible… » goes to the next synthesiser", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    synthesisers(REFUSAL_OTHER_WORDS, "gpt4");
    const res = await process(t, await askReady(t));
    expect(res.body.final_response).not.toContain("pas possible");
    expect(res.body.message.result_data.synthesis.attempts).toEqual([{ name: "Claude Opus 4.1", error: "refus du modèle" }]);
  });

  test("a long refusal (over 900 characters) opening « Je ne peux pas rédiger cette synthèse. » is a refusal", async () => {
    expect(LONG_REFUSAL.length).toBeGreaterThan(900);
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    synthesisers(LONG_REFUSAL);
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(503);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });

  test("a model that declines in other words is named « refus du modèle » and left out of the synthesis", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    fakes().control.set("geminiPro", { answer: MODEL_REFUSAL });
    const res = await process(t, await askReady(t));
    expect(res.status).toBe(200);
    const gemini = res.body.message.result_data.models.find((m: { name: string }) => m.name === "Gemini Pro");
    expect([gemini.status, gemini.error]).toEqual(["failed", "refus du modèle"]);
    expect(res.body.degraded_notice).toContain("A refusé de répondre : Gemini Pro.");
    expect(fakes().control.callsOf("synthesis")[0]!.messages.at(-1)!.content).not.toContain(MODEL_REFUSAL);
  });
});

describe("an answer is what the product promised: the live run", () => {
  test("a synthesis without sections is announced as failed, the next one is the final answer", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    synthesisers(NO_SECTIONS, "gpt4");
    const list = await streamProcess(t, await askReady(t));
    expect(list.find((e) => e.event === "synthesis_failed")?.data).toEqual({ model: "Claude Opus 4.1", reason: "synthèse sans la structure demandée" });
    const final = list.at(-1)!;
    expect(final.event).toBe("final");
    expect(final.data.final_response).not.toContain("L'inflation est due");
    expect(final.data.primary_ai).toBe("GPT-4");
  });

  test("every synthesiser refuses: the live run ends failed and refunded", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    synthesisers(REFUSAL_OTHER_WORDS);
    const list = await streamProcess(t, await askReady(t));
    expect(list.at(-1)!.event).toBe("failed");
    expect(list.at(-1)!.data.refunded).toBe(true);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });
});

describe("an answer is what the product promised: /v1", () => {
  test("plain: a synthesis without sections is replaced by the next one; none stored without them", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX, user: { planQueries: 5 } });
    synthesisers(NO_SECTIONS, "gpt4");
    const plain = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] });
    expect(plain.choices[0]!.message.content).toContain("## Réponse consolidée");
    expect(plain.choices[0]!.message.content).not.toContain("L'inflation est due");
    expect(await balance(t)).toBe(4);
  });

  test("plain: no synthesiser writes the sections: an error, nothing charged", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX, user: { planQueries: 5 } });
    synthesisers(NO_SECTIONS);
    const err = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }).catch((e) => e);
    expect(err.status).toBe(503);
    expect(await balance(t)).toBe(5);
  });

  test("streamed: a refusal in other words never ends the stream as the answer; the next synthesis does", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX, user: { planQueries: 5 } });
    synthesisers(REFUSAL_OTHER_WORDS, "gpt4");
    const text = await readStream(await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] }));
    expect(text).toContain("## Réponse consolidée");
    expect(text).toContain("## Divergences");
    expect(await balance(t)).toBe(4);
  });

  test("streamed: no synthesiser writes the sections: the stream ends in an error, nothing charged", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX, user: { planQueries: 5 } });
    synthesisers(NO_SECTIONS);
    const got = await t.openai.chat.completions
      .create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] })
      .then(readStream)
      .catch((e) => e);
    expect(got).toBeInstanceOf(Error);
    expect(String(got)).toContain("synthèse");
    expect(await balance(t)).toBe(5);
  });
});
