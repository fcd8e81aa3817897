import { describe, expect, test } from "bun:test";
import { askReady, chatApp, useFakeProviders } from "./chat.helpers.ts";

/**
 * Issue 46: a model call started while this process's HTTP client already
 * ran as many requests as Bun allows (BUN_CONFIG_MAX_HTTP_REQUESTS) waits in
 * Bun's queue and sends nothing; abandoned at the stall limit, that silence
 * was the server's, not the model's: it must not open the model's breaker
 * (three such calls made every model « unavailable », and the service said
 * « maintenance » to everyone). Here the app is told its client runs one
 * request at a time, so every call after the first of a run found it full;
 * three models are silent, three answer.
 */
const fakes = useFakeProviders();

describe("calls queued behind the HTTP client's cap", () => {
  test("three runs whose queued calls were abandoned as silent leave every model available", async () => {
    const t = await chatApp(fakes(), { env: { BUN_CONFIG_MAX_HTTP_REQUESTS: "1", AI_TIMEOUT_MS: "3000" } });
    // The council asks GPT-4 first: the silent ones are among the calls that found the client full.
    for (const model of ["geminiPro", "mistralLarge", "sonarPro"] as const) fakes().control.set(model, { fail: "hang", failOn: ["answer"] });
    for (let i = 0; i < 3; i++) {
      const id = await askReady(t, `Quelle est la capitale de la France ? (${i})`);
      const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
      expect(res.status).toBe(200);
    }
    const status = await t.call("GET", "/api/unisson/status");
    expect(status.body.ai_status.filter((s: { available: boolean }) => !s.available)).toEqual([]);
  }, 30_000);
});
