import { frChat } from "../i18n/fr-chat.ts";

/** A length the client asked for (/v1 max_tokens): told to the synthesiser, and the stored text cut at a sentence past it. */
export type LengthLimit = { maxChars: number; maxTokens: number };

/** French runs at about four characters a token: what a client's max_tokens becomes in characters. */
export const CHARS_PER_TOKEN = 4;

export function lengthLimit(maxTokens: number): LengthLimit {
  return { maxTokens, maxChars: maxTokens * CHARS_PER_TOKEN };
}

/** The last place at or before `max` where a sentence (or a line) ends in `text`. */
function lastSentenceEnd(text: string, max: number): number {
  let end = 0;
  for (const m of text.slice(0, max + 1).matchAll(/[.!?…](?=\s|$)|\n/g)) end = m.index + (m[0] === "\n" ? 0 : 1);
  return end;
}

/**
 * The stored answer within the client's length: whole when it fits; else
 * cut after the last sentence that fits, followed by a line saying so. A
 * text with no sentence end within the limit keeps its first sentence
 * (an answer is never empty).
 */
export function cutAtSentence(text: string, limit: LengthLimit): string {
  if (text.length <= limit.maxChars) return text;
  const end = lastSentenceEnd(text, limit.maxChars) || text.search(/[.!?…](?=\s|$)/) + 1 || text.length;
  return `${text.slice(0, end).trimEnd()}\n\n*${frChat.apiCut(limit.maxTokens)}*`;
}

/**
 * A council member's answer as stored and given to the synthesis: within the
 * tokens it was asked for (`maxTokens`), cut at a sentence and marked. A
 * provider that ignores the cap (issue 43: 205 KB for one answer) would
 * otherwise fill the conversation, its export and every later context.
 */
export function capMemberAnswer(text: string, maxTokens: number): string {
  const max = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= max) return text;
  // Never past the cap: without a sentence end within it, at the last space (else at the cap itself).
  const end = lastSentenceEnd(text, max) || text.lastIndexOf(" ", max) + 1 || max;
  return `${text.slice(0, end).trimEnd()}\n\n*${frChat.memberCut}*`;
}
