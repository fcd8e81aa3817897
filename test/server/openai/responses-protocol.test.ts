import { describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, apiError, balance } from "./openai.helpers.ts";

/** /v1/responses where Unisson differs from OpenAI's stored state, and its stream's errors, through the real clients. */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";

describe("/v1/responses: chained turns, store and stream errors", () => {
  test("previous_response_id: 400 unsupported_parameter in French, nothing asked, stored or charged", async () => {
    const t = await apiApp(fakes());
    const err = await apiError(t.openai.responses.create({ model: "unisson", input: "Et sa population ?", previous_response_id: "resp_précédente" }));
    expect(err.status).toBe(400);
    expect(err.code).toBe("unsupported_parameter");
    expect(err.param).toBe("previous_response_id");
    expect(err.message).toContain("Renvoyez toute la conversation dans « input »");
    expect(fakes().control.callsOf("answer")).toHaveLength(0);
    expect(await balance(t)).toBe(5);
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
  });

  test("conversation: the same 400, for its own parameter", async () => {
    const t = await apiApp(fakes());
    const err = await apiError(t.openai.responses.create({ model: "unisson", input: QUESTION, conversation: "conv_123" }));
    expect(err.status).toBe(400);
    expect(err.param).toBe("conversation");
    expect(fakes().control.callsOf("answer")).toHaveLength(0);
  });

  test("store: false is honoured: the answer is given, charged, and not kept in the history", async () => {
    const t = await apiApp(fakes());
    const res = await t.openai.responses.create({ model: "unisson", input: QUESTION, store: false });
    expect(res.output_text).toContain("## Réponse consolidée");
    expect(await balance(t)).toBe(4);
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
  });

  test("store: false, streamed: the same once the stream is read to its end", async () => {
    const t = await apiApp(fakes());
    const stream = t.openai.responses.stream({ model: "unisson", input: QUESTION, store: false });
    const final = await stream.finalResponse();
    expect(final.output_text).toContain("## Réponse consolidée");
    // The stream's last event is written before the conversation is deleted.
    let left = (await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations;
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await Bun.sleep(20);
      left = (await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations;
    }
    expect(left).toEqual([]);
  });

  test("a run failing after the stream opened: the AI SDK's @ai-sdk/openai gets OpenAI's error event with the French message, once", async () => {
    const t = await apiApp(fakes());
    // Every synthesiser cut mid-text: none of their lines is streamed (only a checked answer is), then the run fails.
    fakes().control.setAll({ fail: "cut", failOn: ["synthesis"] });
    const openai = createOpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key });
    const errors: unknown[] = [];
    // No text came before the error: the AI SDK takes it as a failed call, retried like a 503 by default (not here).
    const streamed = streamText({ model: openai("unisson"), prompt: QUESTION, maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    let text = "";
    for await (const piece of streamed.textStream) text += piece;
    expect(text).toBe("");
    // The error event, then response.failed: reported once.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: expect.stringContaining("La synthèse des réponses a échoué"),
      isRetryable: true,
      data: { type: "error", code: "service_unavailable" },
    });
  });
});
