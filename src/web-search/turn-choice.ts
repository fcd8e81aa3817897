import type { MessageRow } from "../chat/chat.queries.ts";

/** Whether the turn's question was asked with web search (POST /chat's `web_search`, kept on the user's message). */
export function askedWithWebSearch(turn: readonly Pick<MessageRow, "sender" | "resultData">[]): boolean {
  return turn.some((m) => m.sender === "user" && m.resultData?.web_search === true);
}

/** What is searched: the question as the user first wrote it in the turn (not the clarifications around it), cut to a search engine's length. */
export function searchQuery(turn: readonly Pick<MessageRow, "sender" | "content">[]): string {
  return (turn.find((m) => m.sender === "user")?.content ?? "").replace(/\s+/g, " ").trim().slice(0, 400);
}

/** The web search choice a new version of a question inherits from the one it replaces (« Nouvelle réponse », an edit). */
export function webChoiceOf(question: Pick<MessageRow, "resultData">): { resultData?: { web_search: true } } {
  return question.resultData?.web_search === true ? { resultData: { web_search: true } } : {};
}
