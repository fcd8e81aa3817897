import { describe, expect, test } from "bun:test";
import type OpenAI from "openai";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance, storedAnswers } from "./openai.helpers.ts";

/**
 * Issues 43 and 47: a /v1 stream sends the answer only once its synthesis
 * passed its checks, so a synthesiser that fails after writing lines leaves
 * nothing in the stream: no restart line, the streamed text is the stored
 * answer, for chat completions and the Responses API alike.
 */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const ASK = { model: "unisson", stream: true as const, messages: [{ role: "user" as const, content: QUESTION }] };
/** Words of the restart line streams used to send (« …la réponse complète suit »): never again. */
const RESTART = /réponse complète suit|s'est interrompue|Le texte a été repris/;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** Every chunk of a streamed completion read with the official client, its text, and the error that ended it if any. */
async function readAll(stream: AsyncIterable<Chunk>) {
  const chunks: Chunk[] = [];
  let error: unknown = null;
  try {
    for await (const chunk of stream) chunks.push(chunk);
  } catch (e) {
    error = e;
  }
  const deltas = chunks.map((c) => c.choices[0]?.delta.content ?? "").filter(Boolean);
  return { chunks, error, deltas, text: deltas.join("") };
}

describe("/v1 chat completions streamed when a synthesiser fails after its first lines", () => {
  test("the next synthesiser writes it: no restart text, the deltas add up to the stored answer, in several chunks", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.set("claudeOpus", { fail: "cut", failOn: ["synthesis"] });
    const got = await readAll(await t.openai.chat.completions.create(ASK));
    expect(
      fakes()
        .control.callsOf("synthesis")
        .map((c) => c.model),
    ).toEqual(["claudeOpus", "gpt4"]);
    expect(got.error).toBeNull();
    expect(got.text).not.toMatch(RESTART);
    expect(got.text).toBe((await storedAnswers(t))[0]!);
    expect(got.text).toStartWith("> Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.");
    expect(got.deltas.length).toBeGreaterThan(3);
    expect(got.chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect((got.chunks.at(-1) as unknown as { unisson: Record<string, unknown> }).unisson).not.toHaveProperty("restarted");
  });

  test("two synthesisers cut, the third writes it: still exactly the stored answer", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.set("claudeOpus", { fail: "cut", failOn: ["synthesis"] });
    fakes().control.set("gpt4", { fail: "cut", failOn: ["synthesis"] });
    const got = await readAll(await t.openai.chat.completions.create(ASK));
    expect(got.error).toBeNull();
    expect(got.text).not.toMatch(RESTART);
    expect(got.text).toBe((await storedAnswers(t))[0]!);
  });

  test("every synthesiser cut after its first lines: no text at all, a last chunk with finish_reason « error », the error, then [DONE]", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.setAll({ fail: "cut", failOn: ["synthesis"] });
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify(ASK),
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).split("\n\n").filter((e) => e.startsWith("data: "));
    expect(events.at(-1)).toBe("data: [DONE]");
    const data = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(data.flatMap((d) => d.choices?.map((c: { delta: { content?: string } }) => c.delta.content ?? "") ?? []).join("")).toBe("");
    expect(data.at(-2).choices[0].finish_reason).toBe("error");
    expect(data.at(-1).error).toMatchObject({ message: expect.stringContaining("La synthèse des réponses a échoué") });
    expect(await balance(t)).toBe(5);
  });

  test("the official client raises that error, after a chunk whose finish_reason is « error »", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.setAll({ fail: "cut", failOn: ["synthesis"] });
    const got = await readAll(await t.openai.chat.completions.create(ASK));
    expect(String(got.error)).toContain("synthèse");
    expect(got.text).toBe("");
    expect(got.chunks.at(-1)!.choices[0]!.finish_reason as string).toBe("error");
  });
});

describe("/v1/responses streamed when a synthesiser fails after its first lines", () => {
  test("the next synthesiser writes it: the text deltas = the stored answer = response.completed's text, no restart text", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.set("claudeOpus", { fail: "cut", failOn: ["synthesis"] });
    const stream = t.openai.responses.stream({ model: "unisson", input: QUESTION });
    const deltas: string[] = [];
    let done = "";
    for await (const e of stream) {
      if (e.type === "response.output_text.delta") deltas.push(e.delta);
      if (e.type === "response.output_text.done") done = e.text;
    }
    const final = await stream.finalResponse();
    const text = deltas.join("");
    expect(text).not.toMatch(RESTART);
    expect(deltas.length).toBeGreaterThan(3);
    expect(await storedAnswers(t)).toEqual([text]);
    expect(final.output_text).toBe(text);
    expect(done).toBe(text);
  });

  test("every synthesiser cut: no text delta, an error event then response.failed, both in OpenAI's shape", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.setAll({ fail: "cut", failOn: ["synthesis"] });
    const res = await fetch(`${t.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "unisson", input: QUESTION, stream: true }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text())
      .split("\n\n")
      .filter((e) => e.includes("data: "))
      .map((e) => ({ name: /^event: (.+)$/m.exec(e)?.[1], data: JSON.parse(e.slice(e.indexOf("data: ") + 6)) }));
    expect(events.map((e) => e.name)).toEqual(["response.created", "response.in_progress", "error", "response.failed"]);
    for (const e of events) expect(e.data.type).toBe(e.name);
    expect(events.map((e) => e.data.sequence_number)).toEqual([0, 1, 2, 3]);
    const [error, failed] = events.slice(2).map((e) => e.data);
    expect(error).toMatchObject({ code: "service_unavailable", message: expect.stringContaining("La synthèse des réponses a échoué"), param: null });
    expect(failed.response).toMatchObject({ status: "failed", output: [], error: { code: "service_unavailable", message: error.message } });
    expect(await balance(t)).toBe(5);
  });
});

describe("/v1 streams while the council works", () => {
  test("heartbeat comments keep the connection open before the answer; the official client ignores them", async () => {
    const t = await apiApp(fakes());
    t.deps.ai.heartbeatMs = 100;
    fakes().control.setAll({ latencyMs: 700 });
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify(ASK),
    });
    const body = await res.text();
    const firstText = body.indexOf('"content":"#');
    expect(body.slice(0, firstText).split(": unisson travaille\n\n").length - 1).toBeGreaterThan(3);
    const got = await readAll(await t.openai.chat.completions.create({ ...ASK, messages: [{ role: "user", content: "Et celle de l'Italie ?" }] }));
    expect(got.error).toBeNull();
    expect(got.text).toBe((await storedAnswers(t))[0]!);
  });
});
