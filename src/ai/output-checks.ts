import { frChat } from "../i18n/fr-chat.ts";
import { type CallFailure, failure } from "./provider-errors.ts";
import { looksLikeRefusal } from "./refusal.ts";
import type { Completion } from "./types.ts";

/** The shape a text was promised to have: null when it has it, else a short French reason (src/chat/answer-structure.ts). */
export type OutputValidator = (text: string) => string | null;

/**
 * The output checks every answer and synthesis passes before it counts: a
 * native refusal, a stream that never finished, empty text, a refusal written
 * in plain text (src/ai/refusal.ts; a missing structure is one of its
 * signals), for the synthesis a text cut at the token limit (an answer cut
 * there still carries its points; a synthesis cut there is a broken answer),
 * and the structure the caller's validator asks for.
 */
export function checkOutput(
  res: Completion,
  purpose: "answer" | "synthesis" | "clarification" | "peer_review",
  validate?: OutputValidator,
): CallFailure | null {
  if (res.stop === "refusal") return failure("refusal", frChat.reason.refusal);
  if (res.stop === "incomplete") return failure("error", frChat.reason.cut);
  if (!res.text.trim()) return failure("error", frChat.reason.empty);
  if (purpose === "clarification") return null;
  const invalid = validate ? validate(res.text) : null;
  if (looksLikeRefusal(res.text, { structureMissing: invalid !== null })) return failure("refusal", frChat.reason.refusal);
  if (purpose === "synthesis" && res.stop === "length") return failure("error", frChat.reason.truncated);
  if (invalid !== null) return failure("error", invalid);
  return null;
}
