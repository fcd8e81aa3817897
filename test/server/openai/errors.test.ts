import { describe, expect, test } from "bun:test";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { generateText } from "ai";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError, balance } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const ask = [{ role: "user" as const, content: QUESTION }];

type App = Awaited<ReturnType<typeof apiApp>>;
const requestsTo = (t: App, path: string) => t.log.lines.filter((l) => l.includes(path)).length;

/** Nothing stored, nothing charged, no model asked: the request was refused before the run. */
async function expectNothingDone(t: App, before: number) {
  expect(await balance(t)).toBe(before);
  expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
  expect(fakes().control.calls).toHaveLength(0);
}

describe("/v1 errors the common clients understand", () => {
  test("a spent quota: 402 insufficient_quota, which the AI SDK does not retry (it retries every 429)", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 0 } });
    const provider = createOpenAICompatible({ name: "unisson", baseURL: `${t.url}/v1`, apiKey: t.key });
    const err = (await generateText({ model: provider("unisson"), prompt: QUESTION }).catch((e) => e)) as { statusCode?: number; isRetryable?: boolean };
    expect(err.statusCode).toBe(402);
    expect(err.isRetryable).toBe(false);
    expect(requestsTo(t, "/v1/chat/completions")).toBe(1);
  });

  test("a spent quota: LangChain's ChatOpenAI with its default retries asks once", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 0 } });
    const llm = new ChatOpenAI({ model: "unisson", apiKey: t.key, configuration: { baseURL: `${t.url}/v1` } });
    const err = (await llm.invoke(QUESTION).catch((e) => e)) as Error;
    expect(err.message).toContain("Vous avez utilisé vos 5 requêtes gratuites");
    expect(requestsTo(t, "/v1/chat/completions")).toBe(1);
  });

  test("an outage (fewer than 2 models): 503 with retry-after, since a wait fixes it", async () => {
    const t = await apiApp(fakes(), { env: { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GOOGLE_API_KEY: "", MISTRAL_API_KEY: "" } });
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: ask }));
    expect(err.status).toBe(503);
    expect(Number(err.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(err.headers?.get("retry-after"))).toBeLessThan(60);
    expect(err.headers?.get("x-should-retry")).toBeNull();
  });

  test("system_fingerprint on a completion and on every streamed chunk", async () => {
    const t = await apiApp(fakes());
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: ask });
    expect(res.system_fingerprint).toMatch(/^fp_unisson_/);
    const stream = await t.openai.chat.completions.create({ model: "unisson", stream: true, messages: [{ role: "user", content: "Et l'Italie ?" }] });
    for await (const chunk of stream) expect(chunk.system_fingerprint).toBe(res.system_fingerprint!);
  });

  test("n: 2 is refused with 400 invalid_request_error (param n), nothing stored or charged", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    const err = await apiError(t.openai.chat.completions.create({ model: "unisson", n: 2, messages: ask }));
    expect(err.status).toBe(400);
    expect(err.type).toBe("invalid_request_error");
    expect(err.param).toBe("n");
    expect(err.message).toContain("« n » doit valoir 1");
    await expectNothingDone(t, before);
  });

  test("a required tool call (tool_choice required, or a named function) is refused with 400, nothing stored or charged", async () => {
    const t = await apiApp(fakes());
    const before = await balance(t);
    const tools = [{ type: "function" as const, function: { name: "meteo", parameters: { type: "object", properties: {} } } }];
    for (const tool_choice of ["required" as const, { type: "function" as const, function: { name: "meteo" } }]) {
      const err = await apiError(t.openai.chat.completions.create({ model: "unisson", messages: ask, tools, tool_choice }));
      expect(err.status).toBe(400);
      expect(err.type).toBe("invalid_request_error");
      expect(err.param).toBe("tool_choice");
      expect(err.message).toContain("Unisson n'appelle pas d'outils");
    }
    await expectNothingDone(t, before);
  });

  test("tools offered with tool_choice auto: the text answer", async () => {
    const t = await apiApp(fakes());
    const tools = [{ type: "function" as const, function: { name: "meteo", parameters: { type: "object", properties: {} } } }];
    const res = await t.openai.chat.completions.create({ model: "unisson", messages: ask, tools, tool_choice: "auto" });
    expect(res.choices[0]!.message.content).toContain("## Réponse consolidée");
  });

  test("an unknown /v1 path: 404 whose message names the endpoints that exist", async () => {
    const t = await apiApp(fakes());
    const res = await fetch(`${t.url}/v1/embeddings`, { method: "POST", headers: { authorization: `Bearer ${t.key}` } });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("unknown_url");
    expect(body.error.message).toContain("POST /v1/chat/completions");
    expect(body.error.message).toContain("POST /v1/responses");
    expect(body.error.message).toContain("GET /v1/models");
  });
});
