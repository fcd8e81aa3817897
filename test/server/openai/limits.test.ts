import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { aiCalls, conversations } from "../../../src/db/schema/index.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { apiApp, balance } from "./openai.helpers.ts";

/**
 * /v1 meets the page's per-user limits (CHAT_LIMIT_PER_10_MIN,
 * CHAT_LIMIT_PER_DAY, TRIAL_CHAT_LIMIT_PER_DAY): one set of counters per
 * person, whatever the key, moderation refusals included; and a refused
 * request leaves no conversation behind.
 */
const fakes = useFakeProviders();
const QUESTION = "Quelle est la capitale de la France ?";
const PRO = { subscriptionType: "pro" as const, planQueries: 100 };
/** The limits are what is tested, not the models' speed: a loaded box must not stall the first answers. */
const SLOW_BOX = { AI_TIMEOUT_MS: "20000" };

type Api = Awaited<ReturnType<typeof apiApp>>;

/** One /v1 completion with `key`: its status, error code and Retry-After. */
async function post(t: Api, key = t.key, question = QUESTION) {
  const res = await fetch(`${t.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "unisson", messages: [{ role: "user", content: question }] }),
  });
  const body = (await res.json()) as { error?: { code: string; message: string } };
  return {
    status: res.status,
    code: body.error?.code,
    message: body.error?.message,
    retryAfter: res.headers.get("retry-after"),
    shouldRetry: res.headers.get("x-should-retry"),
  };
}

async function newKey(t: Api): Promise<{ id: number; secret: string }> {
  const created = await t.call("POST", "/api/auth/api-keys", { token: t.token, json: { name: "Encore" } });
  expect(created.status).toBe(201);
  return { id: created.body.id, secret: created.body.secret };
}

async function conversationCount(t: Api): Promise<number> {
  return (await t.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.userId, t.user.id))).length;
}

async function moderationCalls(t: Api): Promise<number> {
  return (await t.db.select({ id: aiCalls.id }).from(aiCalls).where(eq(aiCalls.purpose, "moderation"))).length;
}

describe("/v1 under the per-user limits of the page", () => {
  test("the page and /v1 count in the same 10-minute window: past it, 429 rate_limit_exceeded in French with Retry-After, nothing asked", async () => {
    const t = await apiApp(fakes(), { env: { ...SLOW_BOX, CHAT_LIMIT_PER_10_MIN: "2" }, user: PRO });
    expect((await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: QUESTION } })).status).toBe(200);
    expect((await post(t)).status).toBe(200);
    const answers = fakes().control.callsOf("answer").length;
    const refused = await post(t);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("rate_limit_exceeded");
    expect(refused.message).toBe("Vous avez envoyé beaucoup de messages en peu de temps. Veuillez patienter avant d'en envoyer d'autres.");
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(fakes().control.callsOf("answer")).toHaveLength(answers);
    expect((await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: QUESTION } })).status).toBe(429);
  });

  test("the daily limit holds on /v1", async () => {
    const t = await apiApp(fakes(), { env: { CHAT_LIMIT_PER_DAY: "1" }, user: PRO });
    expect((await post(t)).status).toBe(200);
    const refused = await post(t);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("rate_limit_exceeded");
    // Hours away: a retry inside the client cannot help.
    expect(refused.shouldRetry).toBe("false");
    expect(await balance(t)).toBe(99);
  });

  test("one counter per user whatever the key: a second key, or a new one after revoking, gets no fresh bucket", async () => {
    const t = await apiApp(fakes(), { env: { CHAT_LIMIT_PER_10_MIN: "3" }, user: PRO });
    const second = await newKey(t);
    expect((await post(t)).status).toBe(200);
    expect((await post(t, second.secret)).status).toBe(200);
    expect((await post(t)).status).toBe(200);
    expect((await t.call("DELETE", `/api/auth/api-keys/${t.keyId}`, { token: t.token })).status).toBe(200);
    expect((await t.call("DELETE", `/api/auth/api-keys/${second.id}`, { token: t.token })).status).toBe(200);
    const fresh = await newKey(t);
    expect((await post(t, fresh.secret)).status).toBe(429);
  });

  test("the 10-a-minute burst is per user: ten completions on one key, the eleventh on another key answers 429", async () => {
    const t = await apiApp(fakes(), { user: PRO });
    const second = await newKey(t);
    for (let i = 0; i < 10; i++) expect((await post(t)).status).toBe(200);
    const refused = await post(t, second.secret);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("rate_limit_exceeded");
    expect(refused.message).toContain("Trop de requêtes");
    expect(await balance(t)).toBe(90);
  });

  test("a trial's moderation-refused completions count against TRIAL_CHAT_LIMIT_PER_DAY: past it, 429 and no moderation call", async () => {
    const t = await apiApp(fakes(), { env: { TRIAL_CHAT_LIMIT_PER_DAY: "3" } });
    fakes().control.moderation = { flagged: true, categories: ["violence"] };
    for (let i = 0; i < 3; i++) expect((await post(t)).code).toBe("content_policy_violation");
    const refused = await post(t);
    expect(refused.status).toBe(429);
    expect(refused.message).toBe("Vous avez atteint la limite quotidienne de messages de l'essai gratuit. Revenez demain ou choisissez un forfait.");
    expect(await moderationCalls(t)).toBe(3);
    expect(await balance(t)).toBe(5);
  });

  test("a completion refused by moderation is not stored as a conversation", async () => {
    const t = await apiApp(fakes());
    fakes().control.moderation = { flagged: true, categories: ["violence"] };
    expect((await post(t)).status).toBe(400);
    expect(await conversationCount(t)).toBe(0);
    expect((await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations).toEqual([]);
  });

  test("ten parallel completions (ten questions) on one remaining request: one answered, nine 402, exactly one conversation left", async () => {
    const t = await apiApp(fakes(), { user: { planQueries: 1 } });
    fakes().control.setAll({ latencyMs: 100 });
    // Ten different questions: identical ones would join one run (retries.test.ts).
    const asked = Array.from({ length: 10 }, (_, i) => post(t, t.key, `${QUESTION} (${i + 1})`));
    const outcomes = (await Promise.all(asked)).map((r) => `${r.status} ${r.code ?? ""}`.trim());
    expect(outcomes.filter((o) => o === "200")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "402 insufficient_quota")).toHaveLength(9);
    expect(await balance(t)).toBe(0);
    expect(await conversationCount(t)).toBe(1);
  });
});
