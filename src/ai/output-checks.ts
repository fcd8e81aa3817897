import { frChat } from "../i18n/fr-chat.ts";
import { type CallFailure, failure } from "./provider-errors.ts";
import type { Completion } from "./types.ts";

/** A short text that opens by declining is a refusal, not an answer (French and English, as models write them). */
const DECLINE =
  /^\s*(je suis (vraiment )?d[ée]sol[ée]|d[ée]sol[ée]|je ne (peux|suis pas en mesure)|je regrette|i'?m sorry|i am sorry|sorry|i (cannot|can'?t|am unable|won'?t))/i;
const DECLINE_VERB = /(ne (peux|pourrai|suis pas en mesure)|pas possible|cannot|can'?t|unable|won'?t|not able)/i;
const DECLINE_MAX_CHARS = 400;

function isDecline(text: string): boolean {
  const t = text.trim();
  return t.length <= DECLINE_MAX_CHARS && DECLINE.test(t) && DECLINE_VERB.test(t);
}

/**
 * The output checks every answer and synthesis passes before it counts: empty
 * text, a refusal (native signal or a short declining text), and, for the
 * synthesis only, a text cut at the token limit (an answer cut there still
 * carries its points; a synthesis cut there is a broken answer).
 */
export function checkOutput(res: Completion, purpose: "answer" | "synthesis" | "clarification"): CallFailure | null {
  if (res.stop === "refusal") return failure("refusal", frChat.reason.refusal);
  if (res.stop === "incomplete") return failure("error", frChat.reason.cut);
  if (!res.text.trim()) return failure("error", frChat.reason.empty);
  if (purpose !== "clarification" && isDecline(res.text)) return failure("refusal", frChat.reason.refusal);
  if (purpose === "synthesis" && res.stop === "length") return failure("error", frChat.reason.truncated);
  return null;
}
