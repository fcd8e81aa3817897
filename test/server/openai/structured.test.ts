import { describe, expect, test } from "bun:test";
import { zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import { z } from "zod";
import { eq } from "drizzle-orm";
import { messages } from "../../../src/db/schema/index.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError, balance, storedAnswers } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const ask = [{ role: "user" as const, content: QUESTION }];

const Capital = z.object({ ville: z.string(), pays: z.string(), population: z.number() });
const VALID = { ville: "Paris", pays: "France", population: 2_100_000 };
type Extra = { unisson: { synthesiser: string; sources: string[]; notice: string | null } };

/** Every synthesiser writes `json`; `claudeOpus` (the first of the chain) writes `first` when given. */
function synthesise(json: string, first?: string) {
  fakes().control.synthesis = (_prompt, model) => (first !== undefined && model === "claudeOpus" ? first : json);
}

describe("/v1 structured output from the whole council", () => {
  test("chat.completions.parse with a zod schema: the synthesis asked for JSON with the schema, the content exactly that JSON, parsed", async () => {
    const t = await apiApp(fakes());
    synthesise(JSON.stringify(VALID));
    const res = await t.openai.chat.completions.parse({ model: "unisson", messages: ask, response_format: zodResponseFormat(Capital, "capitale") });
    expect(res.choices[0]!.message.parsed).toEqual(VALID);
    expect(res.choices[0]!.message.content).toBe(JSON.stringify(VALID));
    expect(await storedAnswers(t)).toEqual([JSON.stringify(VALID)]);
    const [synthesis] = fakes().control.callsOf("synthesis");
    expect(synthesis!.system).toContain("JSON");
    expect(synthesis!.system).toContain('"population"');
    expect((res as unknown as Extra).unisson.sources).toBeArray();
    expect(fakes().control.callsOf("answer")).toHaveLength(6);
    expect(await balance(t)).toBe(4);
  });

  test("a synthesis that does not follow the schema goes to the next synthesiser; charged once", async () => {
    const t = await apiApp(fakes());
    synthesise(JSON.stringify(VALID), JSON.stringify({ ville: "Paris" }));
    const res = await t.openai.chat.completions.parse({ model: "unisson", messages: ask, response_format: zodResponseFormat(Capital, "capitale") });
    expect(res.choices[0]!.message.parsed).toEqual(VALID);
    expect((res as unknown as Extra).unisson.synthesiser).not.toBe("Claude Opus 4.1");
    expect(fakes().control.callsOf("synthesis").length).toBe(2);
    const [row] = await t.db.select({ data: messages.resultData }).from(messages).where(eq(messages.sender, "assistant"));
    const attempts = (row!.data as { synthesis: { attempts: Array<{ name: string; error: string }> } }).synthesis.attempts;
    expect(attempts).toEqual([{ name: "Claude Opus 4.1", error: "synthèse JSON non conforme au schéma (la réponse requiert la propriété pays)" }]);
    expect(await balance(t)).toBe(4);
  });

  test("a text that is not JSON at all falls back too; a JSON in a code block counts", async () => {
    const t = await apiApp(fakes());
    synthesise(`\`\`\`json\n${JSON.stringify(VALID)}\n\`\`\``, "## Réponse consolidée\nParis.");
    const res = await t.openai.chat.completions.parse({ model: "unisson", messages: ask, response_format: zodResponseFormat(Capital, "capitale") });
    expect(res.choices[0]!.message.content).toBe(JSON.stringify(VALID));
  });

  test("no synthesiser writes valid JSON: 400 (the same request would fail again: not to be retried), nothing charged", async () => {
    const t = await apiApp(fakes());
    synthesise("Paris est la capitale.");
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: ask, response_format: zodResponseFormat(Capital, "capitale") }));
    expect(err.status).toBe(400);
    expect(err.headers?.get("x-should-retry")).toBe("false");
    expect(await balance(t)).toBe(5);
  });

  test("json_object: any JSON object", async () => {
    const t = await apiApp(fakes());
    synthesise('{"réponse": "Paris"}', '["Paris"]');
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: ask, response_format: { type: "json_object" } });
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ réponse: "Paris" });
  });

  test("streamed: the delta.content pieces add up to exactly the JSON", async () => {
    const t = await apiApp(fakes());
    synthesise(JSON.stringify(VALID));
    const stream = await t.openai.chat.completions.create({
      model: "unisson",
      stream: true,
      messages: ask,
      response_format: zodResponseFormat(Capital, "capitale"),
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(JSON.parse(text)).toEqual(VALID);
    expect(await storedAnswers(t)).toEqual([text]);
  });

  test("the Responses API's text.format with a zod schema: responses.parse", async () => {
    const t = await apiApp(fakes());
    synthesise(JSON.stringify(VALID));
    const res = await t.openai.responses.parse({ model: "unisson", input: QUESTION, text: { format: zodTextFormat(Capital, "capitale") } });
    expect(res.output_parsed).toEqual(VALID);
  });

  test("a schema that does not compile: 400 before anything is stored or charged", async () => {
    const t = await apiApp(fakes());
    const err = await apiError(
      t.openai.chat.completions.create({
        model: "unisson",
        messages: ask,
        response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "objet" } } },
      }),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain("schéma JSON");
    expect(await storedAnswers(t)).toEqual([]);
    expect(await balance(t)).toBe(5);
  });
});

describe("/v1 max_tokens bounds the consolidated answer", () => {
  // The sections the synthesis must have (answer-structure.ts), then cut to the length asked.
  const LONG = [
    "## Réponse consolidée",
    "Paris est la capitale de la France. Elle compte deux millions d'habitants. Elle est traversée par la Seine.",
    "## Points de consensus",
    "Toutes les réponses citent Paris.",
    "## Divergences",
    "Aucune divergence notable.",
  ].join("\n");

  test("told to the synthesiser, and the stored answer cut after the last sentence that fits, saying so", async () => {
    const t = await apiApp(fakes());
    fakes().control.synthesis = () => LONG;
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: ask, max_tokens: 25 });
    const text = res.choices[0]!.message.content!;
    expect(fakes().control.callsOf("synthesis")[0]!.system).toContain("100 caractères au plus");
    expect(text).toStartWith("## Réponse consolidée\nParis est la capitale de la France. Elle compte deux millions d'habitants.");
    expect(text).not.toContain("Seine");
    expect(text).toContain("max_tokens = 25");
    expect(await storedAnswers(t)).toEqual([text]);
  });

  test("streamed with max_completion_tokens: the deltas add up to the cut stored answer", async () => {
    const t = await apiApp(fakes());
    fakes().control.synthesis = () => LONG;
    const stream = await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: ask, max_completion_tokens: 20 });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toContain("max_tokens = 20");
    expect(await storedAnswers(t)).toEqual([text]);
  });

  test("an answer that fits is left whole", async () => {
    const t = await apiApp(fakes());
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: ask, max_tokens: 4000 });
    expect(res.choices[0]!.message.content).not.toContain("max_tokens");
  });
});
