import { describe, expect, test } from "bun:test";
import type OpenAI from "openai";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance, storedAnswers } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const ASK = { model: "unisson", stream: true as const, messages: [{ role: "user" as const, content: QUESTION }] };
const FOLLOWS = "la réponse complète suit.";
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
  return { chunks, error, text: chunks.map((c) => c.choices[0]?.delta.content ?? "").join("") };
}

/** How many times `part` occurs in `text`. */
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("/v1 chat completions streamed when syntheses fail after their first lines", () => {
  test("every synthesiser cut after its first lines: no restart line is sent, the stream ends in an error", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.setAll({ fail: "cut", failOn: ["synthesis"] });
    const got = await readAll(await t.openai.chat.completions.create(ASK));
    expect(got.text).toStartWith("## Réponse consolidée");
    expect(got.text).not.toContain(FOLLOWS);
    expect(String(got.error)).toContain("synthèse");
    expect(await balance(t)).toBe(5);
  });

  test("a stream that cannot finish ends its choice with finish_reason « error » before the error", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.setAll({ fail: "cut", failOn: ["synthesis"] });
    const got = await readAll(await t.openai.chat.completions.create(ASK));
    expect(got.error).not.toBeNull();
    expect(got.chunks.at(-1)!.choices[0]!.finish_reason as string).toBe("error");
  });

  test("two synthesisers cut, the third writes it: one restart line, naming the first, then exactly the stored answer", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 5 } });
    fakes().control.set("claudeOpus", { fail: "cut", failOn: ["synthesis"] });
    fakes().control.set("gpt4", { fail: "cut", failOn: ["synthesis"] });
    const got = await readAll(await t.openai.chat.completions.create(ASK));
    expect(got.error).toBeNull();
    expect(occurrences(got.text, FOLLOWS)).toBe(1);
    expect(got.text).toContain("*La synthèse de Claude Opus 4.1 s'est interrompue (réponse interrompue) : la réponse complète suit.*");
    const stored = (await storedAnswers(t))[0]!;
    expect(got.text.slice(got.text.indexOf(`${FOLLOWS}*\n\n`) + FOLLOWS.length + 3)).toBe(stored);
    expect(got.chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
  });
});
