import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type OpenAI from "openai";
import { conversations, messages } from "../../../src/db/schema/index.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";

type Api = Awaited<ReturnType<typeof apiApp>>;
type Extra = { unisson?: { synthesiser?: string } };

/** The assistant messages stored for the user's latest API conversation. */
async function storedAnswers(t: Api): Promise<string[]> {
  const rows = await t.db
    .select({ content: messages.content })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(conversations.userId, t.user.id), eq(messages.sender, "assistant")))
    .orderBy(messages.id);
  return rows.map((r) => r.content);
}

/** Reads a streamed completion with the official client: the content deltas, and the last chunk's `unisson`. */
async function read(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>, onFirst?: () => void | Promise<void>) {
  const deltas: string[] = [];
  let last: Extra["unisson"];
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta.content;
    if (text) {
      if (deltas.length === 0) await onFirst?.();
      deltas.push(text);
    }
    if (chunk.choices[0]?.finish_reason) last = (chunk as unknown as Extra).unisson;
  }
  return { deltas, text: deltas.join(""), unisson: last };
}

/** A synthesis with what finishSynthesis rewrites: no "Réponse X" (labels are shuffled per request), a Sources section of its own. */
const SYNTHESIS = [
  "## Réponse consolidée",
  "Paris est la capitale de la France.",
  "",
  "## Points de consensus",
  "Toutes les réponses citent Paris.",
  "",
  "## Divergences",
  "Aucune divergence notable.",
  "",
  "## Sources",
  "- https://invente.example/paris",
].join("\n");

describe("/v1 streamed: the stored answer, once its synthesis passed its checks", () => {
  test("no text while the synthesis is being written; then the stored answer line by line, its deltas adding up to it", async () => {
    const t = await apiApp(fakes());
    let release!: () => void;
    let roleChunk = false;
    fakes().control.set("claudeOpus", { synthesisPause: { afterPieces: 4, until: new Promise<void>((r) => (release = r)) } });
    const stream = await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] });
    let answersWhenFirst: string[] | null = null;
    const deltas: string[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      // The stream opens with OpenAI's role chunk as soon as the run started; the synthesiser is held mid-text meanwhile.
      if (delta?.role === "assistant" && delta.content === "") {
        roleChunk = true;
        for (let i = 0; i < 100 && fakes().control.callsOf("synthesis").length === 0; i++) await Bun.sleep(20);
        await Bun.sleep(100);
        release();
      } else if (delta?.content) {
        if (deltas.length === 0) answersWhenFirst = await storedAnswers(t);
        deltas.push(delta.content);
      }
    }
    expect(roleChunk).toBe(true);
    // Stored before its first text came: nothing is sent that the checks of the whole synthesis could still reject.
    expect(answersWhenFirst!).toEqual([deltas.join("")]);
    expect(deltas[0]).toBe("## Réponse consolidée\n");
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join("")).toMatch(/Réponse [A-F] (?:\(|de )(GPT-4|Claude Opus 4\.1|Claude 3 Haiku|Gemini Pro|Mistral Large|Sonar Pro)/);
  });

  test("streamed and not streamed give the same text: the notice first, the synthesiser's Sources replaced by the real citations", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.synthesis = () => SYNTHESIS;
    fakes().control.set("mistralLarge", { fail: 500, failOn: ["answer"] });
    fakes().control.set("sonarPro", { citations: ["https://fr.wikipedia.org/wiki/Paris"] });
    fakes().control.set("claudeOpus", { synthesisDurationMs: 200 });
    const plain = await t.openai.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] });
    const got = await read(await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] }));
    expect(got.text).toBe(plain.choices[0]!.message.content!);
    expect(got.text).toBe((await storedAnswers(t))[1]!);
    expect(got.deltas[0]).toStartWith("> **Réponse partielle** : synthèse établie à partir de 5 réponses sur 6.");
    expect(got.text).toEndWith("## Sources\n- https://fr.wikipedia.org/wiki/Paris");
    expect(got.text).not.toContain("invente.example");
  });

  test("a synthesiser that stalls after its first line: nothing of its text, the stream is the answer the next one wrote", async () => {
    const t = await apiApp(fakes());
    fakes().control.set("claudeOpus", { fail: "stall", failOn: ["synthesis"] });
    const got = await read(await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] }));
    const stored = (await storedAnswers(t))[0]!;
    expect(stored).toStartWith("> Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.\n\n");
    expect(stored).toContain("Synthèse rédigée par GPT-4 à la place de Claude Opus 4.1.");
    expect(got.text).toBe(stored);
    expect(got.unisson).toEqual(expect.objectContaining({ synthesiser: "GPT-4" }));
    expect(got.unisson).not.toHaveProperty("restarted");
  });

  test("a synthesiser that fails before finishing a line sends nothing of its text: the stream is the stored answer", async () => {
    const t = await apiApp(fakes());
    // The one-line text is the failing synthesiser's; the next one writes the sections the answer must have.
    fakes().control.synthesis = (_, model) => (model === "claudeOpus" ? SYNTHESIS.replaceAll("\n", " ") : SYNTHESIS);
    fakes().control.set("claudeOpus", { fail: "cut", failOn: ["synthesis"] });
    const got = await read(await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] }));
    expect(
      fakes()
        .control.callsOf("synthesis")
        .map((c) => c.model),
    ).toEqual(["claudeOpus", "gpt4"]);
    expect(got.text).toBe((await storedAnswers(t))[0]!);
  });

  test("a client that cancels its stream mid-synthesis stops the run: the synthesis call aborted upstream, nothing stored, refunded", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    fakes().control.setAll({ synthesisDurationMs: 2_000 });
    const controller = new AbortController();
    const stream = await t.openai.chat.completions.create(
      { model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] },
      { signal: controller.signal },
    );
    // Gone while the synthesiser writes (its first pieces are in): the stream sent the role chunk only.
    const gone = (async () => {
      for await (const _ of stream) {
        for (let i = 0; i < 100 && fakes().control.callsOf("synthesis").length === 0; i++) await Bun.sleep(20);
        await Bun.sleep(300);
        controller.abort();
      }
    })();
    await gone.catch(() => {});
    for (let i = 0; i < 20 && fakes().control.abortedCalls("synthesis").length === 0; i++) await Bun.sleep(50);
    expect(fakes().control.abortedCalls("synthesis")).toHaveLength(1);
    for (let i = 0; i < 50 && (await balance(t)) !== before; i++) await Bun.sleep(50);
    expect(await balance(t)).toBe(before);
    // What was written is kept as a stopped message, never as an answer.
    const kinds = await t.db.select({ type: messages.messageType }).from(messages).where(eq(messages.sender, "assistant"));
    expect(kinds.map((k) => k.type)).toEqual(["stopped_response"]);
  });
});
