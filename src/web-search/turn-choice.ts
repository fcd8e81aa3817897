import type { MessageRow } from "../chat/chat.queries.ts";

/** Whether the turn's question was asked with web search (POST /chat's `web_search`, kept on the user's message). */
export function askedWithWebSearch(turn: readonly Pick<MessageRow, "sender" | "resultData">[]): boolean {
  return turn.some((m) => m.sender === "user" && m.resultData?.web_search === true);
}

/** What is searched: the question as the user first wrote it in the turn (not the clarifications around it), cut to a search engine's length. */
export function searchQuery(turn: readonly Pick<MessageRow, "sender" | "content">[]): string {
  return (turn.find((m) => m.sender === "user")?.content ?? "").replace(/\s+/g, " ").trim().slice(0, 400);
}
