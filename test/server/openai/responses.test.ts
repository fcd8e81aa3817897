import { describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, streamText } from "ai";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError, balance, storedAnswers } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";

describe("/v1/responses: the Responses API for text", () => {
  test("responses.create with a string input: the stored answer, usage, one request charged", async () => {
    const t = await apiApp(fakes());
    const res = await t.openai.responses.create({ model: "unisson", input: QUESTION, instructions: "Réponds brièvement." });
    expect(res.object).toBe("response");
    expect(res.status).toBe("completed");
    expect(res.id).toMatch(/^resp_/);
    expect(res.output_text).toContain("## Réponse consolidée");
    expect(await storedAnswers(t)).toEqual([res.output_text]);
    expect(res.usage!.input_tokens).toBeGreaterThan(0);
    expect(res.usage!.total_tokens).toBe(res.usage!.input_tokens + res.usage!.output_tokens);
    expect(await balance(t)).toBe(4);
  });

  test("input as messages: the earlier ones are the context, instructions and system messages left out", async () => {
    const t = await apiApp(fakes());
    await t.openai.responses.create({
      model: "unisson",
      instructions: "Tu es un assistant.",
      input: [
        { role: "user", content: "Parlons de la France." },
        { role: "assistant", content: [{ type: "output_text", text: "Volontiers.", annotations: [] }] as never },
        { role: "user", content: [{ type: "input_text", text: QUESTION }] },
      ],
    });
    const [answer] = fakes().control.callsOf("answer", "gpt4");
    expect(answer!.messages.map((m) => m.content)).toEqual(["Parlons de la France.", "Volontiers.", QUESTION]);
  });

  test("responses.stream: created, text deltas that add up to the stored answer, completed with usage", async () => {
    const t = await apiApp(fakes());
    const stream = t.openai.responses.stream({ model: "unisson", input: QUESTION });
    const types: string[] = [];
    let text = "";
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "response.output_text.delta") text += e.delta;
    }
    const final = await stream.finalResponse();
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toContain("response.output_text.delta");
    expect(await storedAnswers(t)).toEqual([text]);
    expect(final.output_text).toBe(text);
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
  });

  test("the AI SDK's default OpenAI provider (Responses API): generateText and streamText", async () => {
    const t = await apiApp(fakes());
    const openai = createOpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key });
    const plain = await generateText({ model: openai("unisson"), prompt: QUESTION });
    const streamed = streamText({ model: openai("unisson"), prompt: "Et celle de l'Italie ?" });
    let text = "";
    for await (const piece of streamed.textStream) text += piece;
    expect(await storedAnswers(t)).toEqual([text, plain.text]);
    expect(plain.usage.inputTokens).toBeGreaterThan(0);
    expect(t.log.lines.filter((l) => l.includes("path=/v1/responses"))).toHaveLength(2);
    expect(t.log.lines.filter((l) => l.includes("path=/v1/chat/completions"))).toHaveLength(0);
  });

  test("the same rules as chat completions: a spent quota is 402, nothing stored", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 0 } });
    const err = await apiError(t.openai.responses.create({ model: "unisson", input: QUESTION }));
    expect(err.status).toBe(402);
    expect(err.code).toBe("insufficient_quota");
    expect(await storedAnswers(t)).toEqual([]);
  });

  test("a request without a question: 400 in French", async () => {
    const t = await apiApp(fakes());
    const err = await apiError(t.openai.responses.create({ model: "unisson", input: [] as never }));
    expect(err.status).toBe(400);
    expect(err.message).toContain("« input » ne peut pas être vide");
  });
});
