import { describe, expect, test } from "bun:test";
import { EMPTY, type LiveState, reduce } from "../../web/features/chat/live/live-state.ts";
import type { RunEvent } from "../../web/features/chat/live/run-stream.ts";
import { useDom } from "./dom.ts";
import { render, within } from "./rtl.ts";

useDom();

const ev = (type: string, data: Record<string, unknown> = {}, id = 0) => ({ id, type, data }) as RunEvent;
const play = (events: RunEvent[], from: LiveState = EMPTY) => events.reduce(reduce, from);
const started = ev("run_started", { models: ["GPT-4", "Gemini Pro"], skipped: [] });

describe("each model writing, in the live view", () => {
  test("a model's pieces add up to its text, and the model shows as writing until it answered", () => {
    const s = play([
      started,
      ev("model_delta", { model: "GPT-4", from: 0, text: "Paris est " }),
      ev("model_delta", { model: "GPT-4", from: 10, text: "la capitale." }),
    ]);
    expect(s.models[0]).toMatchObject({ name: "GPT-4", state: "writing", text: "Paris est la capitale." });
    expect(s.models[1]).toEqual({ name: "Gemini Pro", state: "waiting" });
    const done = play([ev("model_answered", { model: "GPT-4", latency_ms: 1200 })], s);
    expect(done.models[0]).toMatchObject({ state: "answered", text: "Paris est la capitale." });
  });

  test("the text so far (from 0) after a reconnection replaces what was shown, never twice, never shorter", () => {
    const s = play([started, ev("model_delta", { model: "GPT-4", from: 0, text: "Paris est " })]);
    const resumed = play([ev("model_delta", { model: "GPT-4", from: 0, text: "Paris est la capitale" })], s);
    expect(resumed.models[0]!.text).toBe("Paris est la capitale");
    const older = play([ev("model_delta", { model: "GPT-4", from: 0, text: "Paris" })], resumed);
    expect(older.models[0]!.text).toBe("Paris est la capitale");
  });

  test("a piece that starts past the end of what was shown waits for the text so far", () => {
    const s = play([
      started,
      ev("model_delta", { model: "GPT-4", from: 0, text: "Paris" }),
      ev("model_delta", { model: "GPT-4", from: 40, text: "plus loin" }),
    ]);
    expect(s.models[0]!.text).toBe("Paris");
  });

  test("the panel shows each model's text as it is written, and folds it away once the synthesis is written", async () => {
    const { LiveRun } = await import("../../web/features/chat/live/live-run.tsx");
    // The Markdown chunk loaded first, as once a conversation is near (markdown.tsx): no fallback frame to wait for.
    await (await import("../../web/features/chat/markdown.tsx")).preloadMarkdown();
    const writing = play([started, ev("model_delta", { model: "GPT-4", from: 0, text: "Paris est la capitale de la France." })]);
    const view = render(<LiveRun state={writing} onRetry={() => {}} />);
    const q = within(view.container);
    const section = q.getByRole("region", { name: "Réponse de GPT-4 en cours d'écriture" });
    expect(section.textContent).toContain("Paris est la capitale de la France.");
    expect(q.getByText("rédige…")).toBeTruthy();
    // Only the models that wrote something have a text.
    expect(q.queryByRole("region", { name: "Réponse de Gemini Pro en cours d'écriture" })).toBeNull();
    // A text that fits its box (nothing is laid out here: every height is 0) has nothing to unfold: no toggle, no fade.
    // Chromium checks the toggle of a long text (test/e2e/model-writing.e2e.test.ts).
    expect(within(section).queryByRole("button", { name: "Tout afficher" })).toBeNull();
    expect(section.querySelector(".model-writing-text")!.className).toBe("model-writing-text");

    view.rerender(<LiveRun state={play([ev("synthesis_started", { model: "GPT-4", notice: null, labels: {} })], writing)} onRetry={() => {}} />);
    const folded = view.container.querySelector("details.model-writing-folded")!;
    expect(folded.hasAttribute("open")).toBe(false);
    expect(folded.querySelector("summary")!.textContent).toBe("Réponse du modèle");
  });
});
