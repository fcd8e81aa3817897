import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "../../web/lib/api-types.ts";
import { useDom } from "./dom.ts";
import { fireEvent, render, within } from "./rtl.ts";

useDom();

/** A `stopped_response` message as GET /conversation/{id} gives it after a reload (docs/API.md, « Arrêter »). */
function stoppedMessage(resultData: Record<string, unknown>, content = ""): ChatMessage {
  return {
    id: 9,
    sender: "assistant",
    content,
    message_type: "stopped_response",
    timestamp: "2026-11-27T01:00:00.000Z",
    result_data: { stopped: true, partial_synthesis: content || null, ...resultData },
  } as ChatMessage;
}

async function show(message: ChatMessage, onOpen: (m: ChatMessage) => void = () => {}) {
  const { MessageItem } = await import("../../web/features/chat/message-item.tsx");
  // The Markdown chunk loaded first, as once a conversation is near (markdown.tsx): no fallback frame to wait for.
  await (await import("../../web/features/chat/markdown.tsx")).preloadMarkdown();
  const view = render(
    <ul>
      <MessageItem message={message} onOpen={onOpen} />
    </ul>,
  );
  return within(view.container);
}

describe("a stopped answer in the conversation", () => {
  test("each model stopped while writing shows its text so far, labelled « Arrêté pendant la rédaction »", async () => {
    const q = await show(
      stoppedMessage({
        answers: [{ name: "Claude 3 Haiku", answer: "Paris, sans hésiter." }],
        partial_answers: [
          { name: "GPT-4", text: "Paris est la capitale de" },
          { name: "Gemini Pro", text: "La capitale française est" },
        ],
      }),
    );
    expect(q.getByText("Réponse arrêtée par l'utilisateur")).toBeTruthy();
    for (const [name, text] of [
      ["GPT-4", "Paris est la capitale de"],
      ["Gemini Pro", "La capitale française est"],
    ] as const) {
      const box = q.getByRole("region", { name: `Réponse de ${name}, arrêtée pendant la rédaction` });
      expect(box.textContent).toContain(text);
      expect(within(box).getByText("Arrêté pendant la rédaction")).toBeTruthy();
    }
    // A finished answer stays with the answers received before the stop, not among the stopped ones.
    expect(q.queryByRole("region", { name: "Réponse de Claude 3 Haiku, arrêtée pendant la rédaction" })).toBeNull();
    expect(q.getByText("La réponse reçue avant l'arrêt")).toBeTruthy();
  });

  test("a stopped message without unfinished models (stored before, or none had written) shows no stopped text", async () => {
    const q = await show(stoppedMessage({ answers: [] }));
    expect(q.getByText("L'analyse a été arrêtée avant que la synthèse ne commence.")).toBeTruthy();
    expect(q.queryByText("Arrêté pendant la rédaction")).toBeNull();
  });

  test("clicking inside a stopped model's text does not open the enlarged message", async () => {
    const opened: ChatMessage[] = [];
    const q = await show(stoppedMessage({ answers: [], partial_answers: [{ name: "GPT-4", text: "Paris est" }] }), (m) => opened.push(m));
    fireEvent.click(q.getByRole("region", { name: "Réponse de GPT-4, arrêtée pendant la rédaction" }));
    expect(opened).toHaveLength(0);
  });

  test("the enlarged message shows the stopped models' texts too", async () => {
    const { MessageDetail } = await import("../../web/features/chat/message-detail.tsx");
    await (await import("../../web/features/chat/markdown.tsx")).preloadMarkdown();
    render(<MessageDetail message={stoppedMessage({ answers: [], partial_answers: [{ name: "GPT-4", text: "Paris est" }] })} onClose={() => {}} />);
    const dialog = within(document.body).getByRole("dialog");
    const box = within(dialog).getByRole("region", { name: "Réponse de GPT-4, arrêtée pendant la rédaction" });
    expect(box.textContent).toContain("Paris est");
  });
});
