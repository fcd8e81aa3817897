import { afterEach, describe, expect, jest, test } from "bun:test";
import type { ChatMessage } from "../../web/lib/api-types.ts";
import { useDom } from "./dom.ts";
import { act, fireEvent, render, within } from "./rtl.ts";

useDom();
afterEach(() => jest.useRealTimers());

const final: ChatMessage = {
  id: 7,
  sender: "assistant",
  message_type: "final_response",
  timestamp: "2025-11-20T10:00:00.000Z",
  content: '## Réponse consolidée\n**Paris**. <img src=x onerror="window.hacked=1"><script>window.hacked=2</script> [lien](javascript:alert(1))',
  result_data: {
    primary_ai: "Claude Opus 4.1",
    models: [
      { name: "GPT-4", label: "Réponse A", answer: "GPT-4 dit <b>Paris</b>.", error: null },
      { name: "Gemini Pro", label: null, answer: null, error: "délai dépassé" },
    ],
  },
};

describe("answers", () => {
  test("a final answer is safe Markdown: no raw HTML, no javascript: link; it names the synthesiser and opens each model's answer", async () => {
    const { MessageItem } = await import("../../web/features/chat/message-item.tsx");
    await (await import("../../web/features/chat/markdown.tsx")).preloadMarkdown();
    const opened: ChatMessage[] = [];
    render(<MessageItem message={final} onOpen={(m) => opened.push(m)} />);
    const q = within(document.body);
    expect(document.querySelector(".markdown strong")?.textContent).toBe("Paris");
    expect(document.querySelector("img")).toBeNull();
    expect(document.querySelector("script")).toBeNull();
    expect(document.querySelector("b")).toBeNull();
    expect(document.querySelector("a")?.getAttribute("href") ?? "").not.toContain("javascript:");
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    expect(q.getByText("Synthèse rédigée par Claude Opus 4.1")).toBeTruthy();
    expect(q.getByText(/Gemini Pro/).textContent).toContain("indisponible");
    fireEvent.click(q.getByRole("button", { name: "GPT-4 · Réponse A : voir la réponse de GPT-4" }));
    expect(document.querySelector(".model-answer")?.textContent).toContain("GPT-4 dit");
    expect(opened).toEqual([]); // opening a model's answer does not enlarge the message
    fireEvent.click(q.getByRole("button", { name: "Agrandir le message" }));
    expect(opened).toEqual([final]);
  });

  test("the detail overlay copies the answer; the check icon lasts 2 s", async () => {
    const { MessageDetail } = await import("../../web/features/chat/message-detail.tsx");
    const copied: string[] = [];
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText: async (s: string) => void copied.push(s) } });
    jest.useFakeTimers();
    render(<MessageDetail message={final} onClose={() => {}} />);
    const q = within(document.body);
    expect(q.getByRole("dialog", { name: "Message" })).toBeTruthy();
    await act(async () => {
      fireEvent.click(q.getByRole("button", { name: "Copier" }));
    });
    expect(copied).toEqual([final.content]);
    expect(q.getByRole("button", { name: "Copié !" })).toBeTruthy();
    act(() => jest.advanceTimersByTime(1999));
    expect(q.getByRole("button", { name: "Copié !" })).toBeTruthy();
    act(() => jest.advanceTimersByTime(1));
    expect(q.getByRole("button", { name: "Copier" })).toBeTruthy();
  });

  test("the progress goes 15, 30, 65, 85, 95 a second apart, then 100 'Analyse terminée', cleared 1.5 s later", async () => {
    const { useProgress } = await import("../../web/features/chat/use-progress.ts");
    const { ProgressBar } = await import("../../web/features/chat/progress-bar.tsx");
    let api: ReturnType<typeof useProgress> | undefined;
    function Probe() {
      api = useProgress();
      return <ProgressBar progress={api.progress} />;
    }
    jest.useFakeTimers();
    render(<Probe />);
    const value = () => document.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow") ?? null;
    act(() => api!.start());
    const seen = [value()];
    for (let i = 0; i < 5; i++) {
      act(() => jest.advanceTimersByTime(1000));
      seen.push(value());
    }
    expect(seen).toEqual(["15", "30", "65", "85", "95", "95"]);
    act(() => api!.finish());
    expect(value()).toBe("100");
    expect(document.body.textContent).toContain("Analyse terminée");
    act(() => jest.advanceTimersByTime(1499));
    expect(value()).toBe("100");
    act(() => jest.advanceTimersByTime(1));
    expect(value()).toBeNull();
  });
});
