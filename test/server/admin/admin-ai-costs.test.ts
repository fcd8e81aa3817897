import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";

const fakes = useFakeProviders();

describe("GET /api/admin/ai-costs", () => {
  test("turns the tokens of every call into euros with the price table: per model, per day, per answer", async () => {
    const t = await chatApp(fakes(), { env: { AI_PRICE_GPT4: "1000000,0" } });
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const id = await askReady(t);
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    const gpt = res.body.message.result_data.models.find((m: { name: string }) => m.name === "GPT-4");
    // 1 000 000 € per million input tokens: one euro per input token.
    expect(gpt.cost_eur).toBe(gpt.tokens_in);
    expect(res.body.message.result_data.cost_eur).toBeGreaterThanOrEqual(gpt.tokens_in);
    const costs = (await t.call("GET", "/api/admin/ai-costs", { token: admin.token })).body;
    expect(costs.answers).toBe(1);
    expect(costs.spend_by_model.find((m: { model: string }) => m.model === "GPT-4").eur).toBe(gpt.tokens_in);
    expect(costs.spend_by_day).toHaveLength(1);
    expect(costs.average_per_answer_eur).toBeCloseTo(res.body.message.result_data.cost_eur, 3);
  });

  test("an AI_PRICE_<KEY> that is not two numbers stops the start with one French line", async () => {
    const { loadConfig } = await import("../../../src/config.ts");
    expect(() => loadConfig({ AI_PRICE_GPT4: "cher" })).toThrow(/AI_PRICE_GPT4="cher" doit valoir « entrée,sortie »/);
  });
});
