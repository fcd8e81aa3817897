import { describe, expect, test } from "bun:test";
import type OpenAI from "openai";
import { CANONICAL, LAYOUTS } from "../../fixtures/synthesis-layouts.ts";
import { apiApp } from "../openai/openai.helpers.ts";
import { askReady, type ChatApp, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const process = (t: ChatApp, id: number) => t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
/** A generous timeout (its stall limit is a third of it): a loaded box's first call of a process must not stall out. */
const SLOW_BOX = { AI_TIMEOUT_MS: "9000" };
const QUESTION = "Quelle est la capitale de la France ?";

/** The synthesis as stored: the synthesiser's text, then the Sources the engine adds. */
const storedAs = (text: string) => `${text}\n\n## Sources\n`;

/** A question answered while every synthesiser writes `text`. */
async function processWith(text: string) {
  const t = await chatApp(fakes(), { env: SLOW_BOX });
  fakes().control.synthesis = () => text;
  return { t, res: await process(t, await askReady(t)) };
}

describe("synthesis layouts a reader accepts (test/fixtures/synthesis-layouts.ts)", () => {
  test.each(LAYOUTS.filter((l) => l.accepted).map((l) => [l.name, l] as const))(
    "%s: the first synthesis is the answer, stored in the canonical layout",
    async (_, layout) => {
      const { res } = await processWith(layout.text);
      expect(res.status).toBe(200);
      expect(res.body.message.result_data.synthesis.attempts).toEqual([]);
      expect(res.body.final_response).toStartWith(storedAs(layout.stored ?? CANONICAL));
    },
  );

  test.each(LAYOUTS.filter((l) => !l.accepted).map((l) => [l.name, l] as const))(
    "%s: not the answer promised, every synthesiser writing so ends the run refunded",
    async (_, layout) => {
      const { t, res } = await processWith(layout.text);
      expect(res.status).toBe(503);
      expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    },
  );
});

describe("a /v1 stream of a synthesis written in another layout", () => {
  test("the streamed text is the stored answer, in the canonical layout", async () => {
    const t = await apiApp(fakes(), { env: SLOW_BOX, user: { planQueries: 5 } });
    const bold = LAYOUTS.find((l) => l.name === "a bold title and its text on one line")!;
    fakes().control.synthesis = () => bold.text.replaceAll("\n", "\r\n");
    fakes().control.setAll({ synthesisDurationMs: 300 });
    const stream = await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: QUESTION }] });
    let text = "";
    for await (const chunk of stream as AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toStartWith(storedAs(CANONICAL));
  });
});
