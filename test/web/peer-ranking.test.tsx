import { beforeAll, describe, expect, test } from "bun:test";
import type { ChatMessage } from "../../web/lib/api-types.ts";
import { useDom } from "./dom.ts";
import { render, within } from "./rtl.ts";

useDom();
beforeAll(async () => await (await import("../../web/features/chat/markdown.tsx")).preloadMarkdown());

const review = {
  ranking: [
    { label: "B", name: "Gemini Pro", average_rank: 1.25, votes: 4 },
    { label: "A", name: "GPT-4", average_rank: 1.75, votes: 4 },
  ],
  rankers: [
    { name: "GPT-4", ranked: true, order: ["B"], error: null, latency_ms: 900, cost_eur: 0.001 },
    { name: "Sonar Pro", ranked: false, order: [], error: "délai dépassé", latency_ms: 3000, cost_eur: 0 },
  ],
  failures: ["Sonar Pro n'a pas classé les réponses"],
  cost_eur: 0.001,
  latency_ms: 3000,
};

function answer(resultData: Record<string, unknown>): ChatMessage {
  return {
    id: 9,
    sender: "assistant",
    message_type: "final_response",
    timestamp: "2025-11-20T10:00:00.000Z",
    content: "## Réponse consolidée\nParis.",
    result_data: { primary_ai: "Claude Opus 4.1", models: [{ name: "GPT-4", label: "A", answer: "Paris.", error: null }], ...resultData },
  };
}

describe("the peer ranking beside an answer", () => {
  test("shows the answers in the peers' order with their average rank, and names who did not rank", async () => {
    const { MessageItem } = await import("../../web/features/chat/message-item.tsx");
    render(<MessageItem message={answer({ peer_review: review })} onOpen={() => {}} />);
    const section = within(document.body).getByRole("region", { name: "Classement par les pairs" });
    const items = [...section.querySelectorAll("li")].map((li) => li.textContent);
    expect(items).toEqual(["Gemini Pro · Réponse Brang moyen 1,25 · 4 classements", "GPT-4 · Réponse Arang moyen 1,75 · 4 classements"]);
    expect(section.textContent).toContain("Sonar Pro n'a pas classé les réponses : délai dépassé.");
  });

  test("nothing when the answer has no peer review (off, or an older answer)", async () => {
    const { MessageItem } = await import("../../web/features/chat/message-item.tsx");
    render(<MessageItem message={answer({})} onOpen={() => {}} />);
    expect(document.querySelector(".peer-ranking")).toBeNull();
  });
});

describe("the deliberation in the live run", () => {
  test("under way once the members are asked, then over with who did not rank", async () => {
    const { EMPTY, reduce } = await import("../../web/features/chat/live/live-state.ts");
    let s = reduce(EMPTY, { id: 1, type: "run_started", data: { models: ["GPT-4"], skipped: [], soft_deadline_ms: 20_000, quorum: 3 } });
    expect(s.peerReview).toBeNull();
    s = reduce(s, { id: 2, type: "peer_review_started", data: { models: ["GPT-4", "Sonar Pro"] } });
    expect(s.peerReview).toEqual({ done: false, failures: [] });
    s = reduce(s, { id: 3, type: "peer_review", data: review });
    expect(s.peerReview).toEqual({ done: true, failures: ["Sonar Pro n'a pas classé les réponses"] });
  });
});
