import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { aiCalls } from "../../../src/db/schema/index.ts";
import type { Failure, FakeModel } from "../../fakes/ai/index.ts";
import { askReady, chatApp, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();

/** One model of each adapter: openai, anthropic, google, mistral, and Sonar through the openai SDK. */
const ONE_PER_ADAPTER: Array<[FakeModel, string]> = [
  ["gpt4", "GPT-4"],
  ["claudeHaiku", "Claude 3 Haiku"],
  ["geminiPro", "Gemini Pro"],
  ["mistralLarge", "Mistral Large"],
  ["sonarPro", "Sonar Pro"],
];

async function answerOf(model: FakeModel, name: string, fail: Failure) {
  const t = await chatApp(fakes());
  fakes().control.set(model, { fail, failOn: ["answer"] });
  const id = await askReady(t);
  const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
  expect(res.status).toBe(200);
  return res.body.message.result_data.models.find((m: { name: string }) => m.name === name);
}

describe("every adapter streams through its SDK and reads the stop reason", () => {
  for (const [model, name] of ONE_PER_ADAPTER) {
    test(`${name}: a streamed answer arrives whole, with its usage and cost`, async () => {
      const t = await chatApp(fakes());
      fakes().control.set(model, { answer: "Un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze.", durationMs: 50 });
      const id = await askReady(t);
      const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
      const report = res.body.message.result_data.models.find((m: { name: string }) => m.name === name);
      expect(report.answer).toBe("Un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze.");
      expect(report.tokens_in).toBeGreaterThan(0);
      expect(report.tokens_out).toBeGreaterThan(0);
      expect(report.cost_eur).toBeGreaterThan(0);
    });

    test(`${name}: a refusal (native signal where the API has one) is never an answer`, async () => {
      const report = await answerOf(model, name, "refusal");
      expect([report.status, report.error]).toEqual(["failed", "refus du modèle"]);
    });

    test(`${name}: a stream cut mid-answer is a failure, not a short answer`, async () => {
      const report = await answerOf(model, name, "cut");
      expect(report.status).toBe("failed");
      expect(report.answer).toBeNull();
    });

    test(`${name}: an empty stream is "réponse vide"`, async () => {
      const report = await answerOf(model, name, "empty");
      expect(report.error).toBe("réponse vide");
    });
  }

  for (const [model, name] of ONE_PER_ADAPTER) {
    test(`${name}: a 429 is retried after the wait the provider asked for, each attempt logged`, async () => {
      const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "5000" } });
      fakes().control.set(model, { fail: 429, failOn: ["answer"], failTimes: 1, retryAfterS: 1 });
      const id = await askReady(t);
      await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
      const rows = await t.db
        .select({ outcome: aiCalls.outcome, http_status: aiCalls.httpStatus })
        .from(aiCalls)
        .where(and(eq(aiCalls.model, name), eq(aiCalls.purpose, "answer")))
        .orderBy(aiCalls.id);
      expect(rows.map((r) => [r.outcome, r.http_status])).toEqual([
        ["error", 429],
        ["ok", 200],
      ]);
      const calls = fakes().control.callsOf("answer", model);
      expect(calls).toHaveLength(2);
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    });
  }

  for (const [model, name] of ONE_PER_ADAPTER.filter(([m]) => m !== "claudeHaiku")) {
    test(`${name}: a synthesis cut at the token limit is handed to the next synthesiser`, async () => {
      const t = await chatApp(fakes());
      // Only this model's synthesis is cut: every better-ranked one refuses to write it.
      const order: FakeModel[] = ["claudeOpus", "gpt4", "geminiPro", "mistralLarge", "sonarPro", "claudeHaiku"];
      for (const m of order.slice(0, order.indexOf(model))) fakes().control.set(m, { fail: 500, failOn: ["synthesis"] });
      fakes().control.set(model, { fail: "length", failOn: ["synthesis"] });
      const id = await askReady(t);
      const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
      expect(res.status).toBe(200);
      expect(res.body.primary_ai).not.toBe(name);
      expect(res.body.message.result_data.synthesis.attempts.at(-1)).toEqual({ name, error: "synthèse tronquée (limite de jetons)" });
    });
  }
});
