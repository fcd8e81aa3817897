import { describe, expect, test } from "bun:test";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { generateObject } from "ai";
import OpenAI from "openai";
import { z } from "zod";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance } from "./openai.helpers.ts";

/**
 * /v1's fair use when runs fail (failed-runs.ts, joined-runs.ts): a failed
 * run is refunded, yet it cost every provider call; the same request again
 * counts in the limits, a lasting failure answers from its stored failure,
 * and a loop of failures is stopped.
 */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const PRO = { subscriptionType: "pro" as const, planQueries: 100 };
/** A schema no synthesis follows here: every synthesiser writes prose. */
const SCHEMA = { type: "object", properties: { ville: { type: "string" } }, required: ["ville"], additionalProperties: false };

type Api = Awaited<ReturnType<typeof apiApp>>;

async function post(t: Api, body: Record<string, unknown> = {}) {
  const res = await fetch(`${t.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "unisson", messages: [{ role: "user", content: QUESTION }], ...body }),
  });
  const json = (await res.json()) as { error?: { code: string; message: string } };
  return { status: res.status, code: json.error?.code, message: json.error?.message, shouldRetry: res.headers.get("x-should-retry") };
}

const withSchema = { response_format: { type: "json_schema", json_schema: { name: "ville", schema: SCHEMA } } };
/** Every call a provider received: the models' and the moderation endpoint's. */
const providerCalls = () => fakes().control.calls.length + fakes().control.moderations.length;

describe("/v1 fair use of failed runs", () => {
  test("a failed request sent again runs again only within the per-user limits: past CHAT_LIMIT_PER_10_MIN, 429 and no provider call", async () => {
    const t = await apiApp(fakes(), { env: { CHAT_LIMIT_PER_10_MIN: "2" }, user: PRO });
    // An outage of the synthesisers: a reason that may pass, so the same request is run again.
    fakes().control.setAll({ fail: 500, failOn: ["synthesis"] });
    expect((await post(t)).status).toBe(503);
    expect((await post(t)).status).toBe(503);
    const calls = providerCalls();
    const refused = await post(t);
    expect(refused.status).toBe(429);
    expect(refused.message).toBe("Vous avez envoyé beaucoup de messages en peu de temps. Veuillez patienter avant d'en envoyer d'autres.");
    expect(providerCalls()).toBe(calls);
    expect(await balance(t)).toBe(100);
  });

  test("a schema no synthesis follows: 400 not to be retried, and the same request again answers that failure without any provider call", async () => {
    const t = await apiApp(fakes(), { user: PRO });
    fakes().control.synthesis = () => "Paris est la capitale.";
    const first = await post(t, withSchema);
    expect(first.status).toBe(400);
    expect(first.shouldRetry).toBe("false");
    expect(first.message).toContain("Le conseil n'a pas pu produire de réponse conforme à cette requête");
    const calls = providerCalls();
    for (let i = 0; i < 5; i++) expect((await post(t, withSchema)).status).toBe(400);
    expect(providerCalls()).toBe(calls);
    expect(await balance(t)).toBe(100);
  });

  test("a council that declines the question: 400 not to be retried (never a 503 every client retries), the same request answered from it", async () => {
    const t = await apiApp(fakes(), { user: PRO });
    fakes().control.setAll({ fail: "refusal", failOn: ["answer"] });
    const first = await post(t);
    expect(first.status).toBe(400);
    expect(first.shouldRetry).toBe("false");
    expect(first.message).toContain("refus des modèles");
    const calls = providerCalls();
    expect((await post(t)).status).toBe(400);
    expect(providerCalls()).toBe(calls);
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
    expect(await balance(t)).toBe(100);
  });

  test("a request refused for a lasting failure leaves no question in the history, and is still answered from that failure", async () => {
    const t = await apiApp(fakes(), { user: PRO });
    fakes().control.synthesis = () => "Paris est la capitale.";
    expect((await post(t, withSchema)).status).toBe(400);
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
    const calls = providerCalls();
    expect((await post(t, withSchema)).status).toBe(400);
    expect(providerCalls()).toBe(calls);
  });

  test("a loop of failing requests, each a little different: 429 in French after 3 failed runs in 10 minutes, no provider call then", async () => {
    const t = await apiApp(fakes(), { user: PRO });
    fakes().control.synthesis = () => "Paris est la capitale.";
    const ask = (i: number) => post(t, { ...withSchema, messages: [{ role: "user", content: `${QUESTION} (${i})` }] });
    for (let i = 0; i < 3; i++) expect((await ask(i)).status).toBe(400);
    const calls = providerCalls();
    const refused = await ask(3);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("rate_limit_exceeded");
    expect(refused.message).toContain("Vos dernières requêtes à l'API ont échoué coup sur coup");
    expect(refused.shouldRetry).toBe("false");
    expect(providerCalls()).toBe(calls);
    t.clock.advance(10 * 60_000 + 1);
    fakes().control.synthesis = () => JSON.stringify({ ville: "Paris" });
    expect((await ask(4)).status).toBe(200);
  });
});

/** The clients' own retries (default settings) of a request whose schema no synthesis follows: one run, whatever the client. */
describe("/v1: a lasting failure is not retried by the clients people use", () => {
  const City = z.object({ ville: z.string() });
  /** On 576edfd each retry waited Retry-After (30 s) then ran the whole council again: the test ran out of time. */
  const TEST_MS = 25_000;

  /** Asks through `client` (given the server's URL and key) with synthesisers that write prose: the error it ends with, after one run. */
  async function failureThrough(client: (url: string, key: string) => Promise<unknown>): Promise<{ message: string }> {
    const t = await apiApp(fakes());
    fakes().control.synthesis = () => "Paris est la capitale.";
    const err = await client(`${t.url}/v1`, t.key).then(
      () => ({ message: "answered" }),
      (e) => e,
    );
    expect(fakes().control.callsOf("answer")).toHaveLength(6);
    return err;
  }

  test(
    "openai, chat.completions.parse with its 2 retries",
    async () => {
      const err = await failureThrough((baseURL, apiKey) =>
        new OpenAI({ apiKey, baseURL }).chat.completions.parse({
          model: "unisson",
          messages: [{ role: "user", content: QUESTION }],
          response_format: withSchema.response_format as never,
        }),
      );
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    },
    TEST_MS,
  );

  test(
    "the AI SDK with @ai-sdk/openai (the Responses API), generateObject with its 2 retries",
    async () => {
      const err = await failureThrough((baseURL, apiKey) =>
        generateObject({ model: createOpenAI({ baseURL, apiKey })("unisson"), schema: City, prompt: QUESTION }),
      );
      expect(err.message).toContain("Le conseil n'a pas pu produire de réponse conforme");
    },
    TEST_MS,
  );

  test(
    "LangChain's ChatOpenAI, withStructuredOutput with its 6 retries",
    async () => {
      const err = await failureThrough((baseURL, apiKey) =>
        new ChatOpenAI({ model: "unisson", apiKey, configuration: { baseURL } }).withStructuredOutput(City).invoke(QUESTION),
      );
      expect(err.message).toContain("Le conseil n'a pas pu produire de réponse conforme");
    },
    TEST_MS,
  );
});
