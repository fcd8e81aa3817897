import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { sectionValidator } from "../../../src/chat/answer-structure.ts";
import { defaultSynthesis } from "../../fakes/ai/control.ts";
import type { Failure, FakeModel } from "../../fakes/ai/index.ts";
import { askReady, chatApp, remaining, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const MODELS: FakeModel[] = ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro", "mistralLarge", "sonarPro"];
const NAMES = ["GPT-4", "Claude Opus 4.1", "Claude 3 Haiku", "Gemini Pro", "Mistral Large", "Sonar Pro"];
/** Outcomes written in the text itself, with a normal finish: a refusal in other words, a synthesis without its sections. */
type Written = "refusal-words" | "no-structure";
const WRITTEN: Record<Written, string> = {
  "refusal-words": "Malheureusement, il ne m'est pas possible de vous aider avec cette demande.",
  "no-structure": "L'inflation est due à la hausse des prix de l'énergie.",
};
const ANSWER_OUTCOMES: Array<Failure | Written | "ok"> = [
  "ok",
  "ok",
  500,
  429,
  401,
  400,
  "refusal",
  "empty",
  "cut",
  "length",
  "decline",
  "invalid-json",
  "refusal-words",
];
const SYNTHESIS_OUTCOMES: Array<Failure | Written | "ok"> = ["ok", "ok", 500, "refusal", "length", "decline", "cut", "empty", "refusal-words", "no-structure"];

/**
 * For any mix of per-model outcomes (answers and syntheses, refusals in
 * other words and syntheses without their sections among them): the user is
 * charged at most once, and only when a complete synthesis of at least 3
 * answers, with the sections the prompt asks for, is stored; every model the
 * product knows is in the answer or named with a reason.
 */
describe("property: per-model outcome mixes", () => {
  test("charged at most once, only for a complete synthesis, every model answered or named", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ANSWER_OUTCOMES), { minLength: 6, maxLength: 6 }),
        fc.array(fc.constantFrom(...SYNTHESIS_OUTCOMES), { minLength: 6, maxLength: 6 }),
        async (answers, syntheses) => {
          fakes().control.reset();
          const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "2000" } });
          const written = new Map<string, string>();
          MODELS.forEach((m, i) => {
            const a = answers[i]!;
            const s = syntheses[i]!;
            if (a === "refusal-words") fakes().control.set(m, { answer: WRITTEN[a] });
            else if (a !== "ok" && a !== "no-structure") fakes().control.set(m, { fail: a, failOn: ["answer"], retryAfterS: 0 });
            else if (s === "refusal-words" || s === "no-structure") written.set(m, WRITTEN[s]);
            else if (s !== "ok") fakes().control.set(m, { fail: s, failOn: ["synthesis"] });
          });
          fakes().control.synthesis = (prompt, model) => written.get(model) ?? defaultSynthesis(prompt);
          const id = await askReady(t);
          const calls = await Promise.all([1, 2].map(() => t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } })));
          const spent = 5 - (await remaining(t)).plan;
          expect(spent).toBeLessThanOrEqual(1);
          const res = calls[0]!;
          if (res.status !== 200) {
            expect(spent).toBe(0);
            return;
          }
          const data = res.body.message.result_data;
          expect(res.body.final_response).toContain("## Sources");
          expect(sectionValidator(res.body.final_response)).toBeNull();
          expect(res.body.final_response).not.toContain(WRITTEN["refusal-words"]);
          expect(res.body.final_response).not.toContain(WRITTEN["no-structure"]);
          expect(spent).toBe(data.available_ais.length >= 3 ? 1 : 0);
          const named = new Set([...data.available_ais, ...data.failed_ais.map((f: { name: string }) => f.name)]);
          expect([...named].sort()).toEqual([...NAMES].sort());
          for (const f of data.failed_ais) expect(f.error.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
