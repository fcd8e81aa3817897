import type { Consolidation } from "../../../src/contracts/answer.ts";

export type ModelAnswer = { name: string; label: string | null; content: string | null; error: string | null };
export type FinalResult = { primary: string | null; answers: ModelAnswer[] };

/**
 * Reads a final answer's result_data (the engine's Consolidation): who wrote
 * the synthesis and each model's own answer or failure. Defensive, because a
 * stored message outlives the code that wrote it.
 */
export function readFinalResult(data: Record<string, unknown> | null): FinalResult {
  const d = (data ?? {}) as Partial<Consolidation>;
  const primary = typeof d.primary_ai === "string" && d.primary_ai ? d.primary_ai : null;
  let answers: ModelAnswer[] = [];
  if (Array.isArray(d.models)) {
    answers = d.models
      .filter((m) => m && typeof m.name === "string")
      .map((m) => ({ name: m.name, label: m.label ?? null, content: typeof m.answer === "string" ? m.answer : null, error: m.error ?? null }));
  } else if (Array.isArray(d.available_ais)) {
    answers = d.available_ais.map((name) => ({ name, label: null, content: null, error: null }));
  }
  return { primary, answers };
}
