/**
 * Every client docs/API.md gives a snippet for, with its default settings
 * (retries, timeouts) but the base URL and key, asking one question: the
 * answer it returns is the stored one. The snippets in docs/API.md are these
 * calls.
 */
import { describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { OpenAI as LlamaOpenAI } from "@llamaindex/openai";
import { generateObject, generateText } from "ai";
import { Configuration, OpenAIApi } from "openai-edge";
import OpenAI7 from "openai7";
import { TokenJS } from "token.js";
import { z } from "zod";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, storedAnswers } from "./openai.helpers.ts";

const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const Capital = z.object({ ville: z.string(), pays: z.string() });
const CAPITAL = { ville: "Paris", pays: "France" };
/** What docs/API.md tells every client: above the longest answer (AI_BUDGET_MS, 2 minutes). */
const TIMEOUT_MS = 180_000;
/** A client's own retry of an outage waits Retry-After (30 s): room for one, on a busy machine. */
const TEST_MS = 90_000;

describe("/v1 through the clients people use, default settings", () => {
  test(
    "openai 7: chat.completions.create and responses.create",
    async () => {
      const t = await apiApp(fakes());
      const client = new OpenAI7({ apiKey: t.key, baseURL: `${t.url}/v1`, timeout: TIMEOUT_MS });
      const chat = await client.chat.completions.create({ model: "unisson", messages: [{ role: "user", content: QUESTION }] });
      const res = await client.responses.create({ model: "unisson", input: "Et celle de l'Italie ?" });
      expect(await storedAnswers(t)).toEqual([res.output_text, chat.choices[0]!.message.content!]);
    },
    TEST_MS,
  );

  test(
    "LangChain's ChatOpenAI: invoke, and withStructuredOutput (its default method: a JSON schema)",
    async () => {
      const t = await apiApp(fakes());
      const llm = new ChatOpenAI({ model: "unisson", apiKey: t.key, timeout: TIMEOUT_MS, configuration: { baseURL: `${t.url}/v1` } });
      const msg = await llm.invoke(QUESTION);
      fakes().control.synthesis = () => JSON.stringify(CAPITAL);
      const parsed = await llm.withStructuredOutput(Capital).invoke("Et celle de l'Italie ?");
      expect(parsed).toEqual(CAPITAL);
      expect(await storedAnswers(t)).toEqual([JSON.stringify(CAPITAL), msg.content as string]);
    },
    TEST_MS,
  );

  test(
    "the AI SDK with @ai-sdk/openai-compatible: generateText and generateObject",
    async () => {
      const t = await apiApp(fakes());
      const unisson = createOpenAICompatible({ name: "unisson", baseURL: `${t.url}/v1`, apiKey: t.key, supportsStructuredOutputs: true });
      const { text } = await generateText({ model: unisson("unisson"), prompt: QUESTION, abortSignal: AbortSignal.timeout(TIMEOUT_MS) });
      fakes().control.synthesis = () => JSON.stringify(CAPITAL);
      const { object } = await generateObject({ model: unisson("unisson"), schema: Capital, prompt: "Et celle de l'Italie ?" });
      expect(object).toEqual(CAPITAL);
      expect(await storedAnswers(t)).toEqual([JSON.stringify(CAPITAL), text]);
    },
    TEST_MS,
  );

  test(
    "the AI SDK with @ai-sdk/openai (the Responses API): generateText and generateObject",
    async () => {
      const t = await apiApp(fakes());
      const openai = createOpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key });
      const { text } = await generateText({ model: openai("unisson"), prompt: QUESTION, abortSignal: AbortSignal.timeout(TIMEOUT_MS) });
      fakes().control.synthesis = () => JSON.stringify(CAPITAL);
      const { object } = await generateObject({ model: openai("unisson"), schema: Capital, prompt: "Et celle de l'Italie ?" });
      expect(object).toEqual(CAPITAL);
      expect(await storedAnswers(t)).toEqual([JSON.stringify(CAPITAL), text]);
    },
    TEST_MS,
  );

  test(
    "LlamaIndex's OpenAI, with its timeout raised from 60 s",
    async () => {
      const t = await apiApp(fakes());
      const llm = new LlamaOpenAI({ model: "unisson", apiKey: t.key, baseURL: `${t.url}/v1`, timeout: TIMEOUT_MS });
      const res = await llm.chat({ messages: [{ role: "user", content: QUESTION }] });
      expect(await storedAnswers(t)).toEqual([res.message.content as string]);
    },
    TEST_MS,
  );

  test(
    "token.js (openai-compatible provider)",
    async () => {
      const t = await apiApp(fakes());
      const tokenjs = new TokenJS({ apiKey: t.key, baseURL: `${t.url}/v1` });
      const res = await tokenjs.chat.completions.create({ provider: "openai-compatible", model: "unisson", messages: [{ role: "user", content: QUESTION }] });
      expect(await storedAnswers(t)).toEqual([res.choices[0]!.message.content!]);
    },
    TEST_MS,
  );

  test(
    "openai-edge",
    async () => {
      const t = await apiApp(fakes());
      const api = new OpenAIApi(new Configuration({ apiKey: t.key, basePath: `${t.url}/v1` }));
      const res = await api.createChatCompletion({ model: "unisson", messages: [{ role: "user", content: QUESTION }] });
      const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
      expect(await storedAnswers(t)).toEqual([body.choices[0]!.message.content]);
    },
    TEST_MS,
  );

  test(
    "curl",
    async () => {
      const t = await apiApp(fakes());
      const curl = Bun.spawn(
        [
          "curl",
          "--silent",
          "--max-time",
          "180",
          `${t.url}/v1/chat/completions`,
          "-H",
          `Authorization: Bearer ${t.key}`,
          "-H",
          "Content-Type: application/json",
          "-d",
          JSON.stringify({ model: "unisson", messages: [{ role: "user", content: QUESTION }] }),
        ],
        { stdout: "pipe" },
      );
      const body = JSON.parse(await new Response(curl.stdout).text()) as { choices: Array<{ message: { content: string } }> };
      expect(await storedAnswers(t)).toEqual([body.choices[0]!.message.content]);
    },
    TEST_MS,
  );
});
