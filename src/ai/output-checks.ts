import { frChat } from "../i18n/fr-chat.ts";
import { type CallFailure, failure } from "./provider-errors.ts";
import { readRefusal } from "./refusal.ts";
import type { Completion } from "./types.ts";

/** The shape a text was promised to have: null when it has it, else a short French reason (src/chat/answer-structure.ts). */
export type OutputValidator = (text: string) => string | null;

/** The confirmation of an ambiguous text (src/ai/refusal-confirm.ts): true a refusal, false not one, null no verdict (kept). */
export type ConfirmRefusal = (text: string, within: { timeoutMs: number; signal?: AbortSignal }) => Promise<boolean | null>;

/** A failure, or a text that counts; `partialRefusal` when it declined one part and answered the rest (kept, marked). */
export type OutputVerdict = { failure: CallFailure | null; partialRefusal: boolean };

const ok: OutputVerdict = { failure: null, partialRefusal: false };
const failed = (f: CallFailure): OutputVerdict => ({ failure: f, partialRefusal: false });

/**
 * The output checks every answer and synthesis passes before it counts: a
 * native refusal, a stream that never finished, empty text, a refusal written
 * in plain text (src/ai/refusal.ts: the local pre-filter, then for an
 * ambiguous text the confirmation `confirm`, when the run has one; a missing
 * structure makes a decline a refusal), for the synthesis a text cut at the
 * token limit (an answer cut there still carries its points; a synthesis cut
 * there is a broken answer), and the structure the caller's validator asks for.
 */
export async function checkOutput(
  res: Completion,
  purpose: "answer" | "synthesis" | "clarification" | "peer_review" | "refusal_check",
  validate?: OutputValidator,
  confirm?: { ask: ConfirmRefusal; timeoutMs: number; signal?: AbortSignal },
): Promise<OutputVerdict> {
  if (res.stop === "refusal") return failed(failure("refusal", frChat.reason.refusal));
  if (res.stop === "incomplete") return failed(failure("error", frChat.reason.cut));
  if (!res.text.trim()) return failed(failure("error", frChat.reason.empty));
  if (purpose === "clarification" || purpose === "refusal_check") return ok;
  const invalid = validate ? validate(res.text) : null;
  const { verdict } = readRefusal(res.text, { structureMissing: invalid !== null, synthesis: purpose === "synthesis" });
  const confirmed = verdict === "ambiguous" && confirm ? await confirm.ask(res.text, confirm) : null;
  if (verdict === "refusal" || confirmed === true) return failed(failure("refusal", frChat.reason.refusal));
  if (purpose === "synthesis" && res.stop === "length") return failed(failure("error", frChat.reason.truncated));
  if (invalid !== null) return failed(failure("error", invalid));
  return { failure: null, partialRefusal: verdict === "partial" };
}
