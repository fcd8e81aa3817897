import { describe, expect, test } from "bun:test";
import { EMPTY, reduce } from "../../web/features/chat/live/live-state.ts";
import type { RunEvent } from "../../web/features/chat/live/run-stream.ts";

// Partial data on purpose: each test gives only what the reducer reads.
const ev = (type: string, data: Record<string, unknown> = {}, id = 0) => ({ id, type, data }) as RunEvent;
const play = (events: RunEvent[]) => events.reduce(reduce, EMPTY);

describe("the live view of a run, event by event", () => {
  test("one line per model, skipped ones included, each with its state", () => {
    const s = play([
      ev("run_started", {
        models: ["GPT-4", "Gemini Pro", "Sonar Pro"],
        skipped: [{ model: "Mistral Large", reason: "non interrogé : indisponible depuis 14 h 02" }],
      }),
      ev("model_answered", { model: "GPT-4", latency_ms: 2400 }),
      ev("model_failed", { model: "Gemini Pro", reason: "refus du modèle" }),
      ev("model_left_out", { model: "Sonar Pro", reason: "délai dépassé" }),
    ]);
    expect(s.models).toEqual([
      { name: "GPT-4", state: "answered", seconds: "2,4" },
      { name: "Gemini Pro", state: "failed", reason: "refus du modèle" },
      { name: "Sonar Pro", state: "left_out", reason: "délai dépassé" },
      { name: "Mistral Large", state: "skipped", reason: "non interrogé : indisponible depuis 14 h 02" },
    ]);
  });

  test("the bar follows real events: 30 when asked, 65 with answers, 85 at the synthesis, 95 while it is written, 100 at the end", () => {
    const steps: number[] = [];
    let s = EMPTY;
    for (const e of [
      ev("run_started", { models: ["GPT-4", "Gemini Pro"], skipped: [] }),
      ev("model_answered", { model: "GPT-4", latency_ms: 10 }),
      ev("synthesis_started", { model: "GPT-4" }),
      ev("synthesis_delta", { text: "Paris" }),
      ev("final", {}),
    ]) {
      s = reduce(s, e);
      steps.push(s.step);
    }
    expect(steps).toEqual([30, 65, 85, 95, 100]);
  });

  test("a synthesiser that fails mid-text: its text is cleared and the handover is shown", () => {
    const s = play([
      ev("run_started", { models: ["GPT-4"], skipped: [] }),
      ev("synthesis_started", { model: "Claude Opus 4.1" }),
      ev("synthesis_delta", { text: "Début coupé" }),
      ev("synthesis_failed", { model: "Claude Opus 4.1", reason: "flux interrompu" }),
      ev("synthesis_started", { model: "GPT-4" }),
      ev("synthesis_delta", { text: "Paris." }),
    ]);
    expect(s.text).toBe("Paris.");
    expect(s.synthesisBy).toBe("GPT-4");
    expect(s.handovers).toEqual([{ model: "Claude Opus 4.1", reason: "flux interrompu" }]);
  });

  test("a failed run keeps the detail and the models' own answers", () => {
    const s = play([ev("failed", { code: "SYNTHESIS_FAILED", detail: "La synthèse des réponses a échoué.", answers: [{ name: "GPT-4", answer: "Paris." }] })]);
    expect(s.failed).toEqual({ code: "SYNTHESIS_FAILED", detail: "La synthèse des réponses a échoué.", answers: [{ name: "GPT-4", answer: "Paris." }] });
    expect(s.done).toBe(true);
  });
});
