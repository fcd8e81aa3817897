import { synthesisSystem } from "./prompts.ts";
import type { WebSource } from "../web-search/web-sources.ts";
import { finishSynthesis } from "./synthesis.ts";
import { cutAtSentence, type LengthLimit } from "./answer-length.ts";
import { sectionValidator, type SynthesisValidator } from "./answer-structure.ts";

/**
 * How the synthesis step asks for, checks and finishes the consolidated
 * answer. The page and plain /v1 use the Markdown plan; a /v1 request with
 * response_format a JSON one (src/chat/json-answer.ts). `validate` runs on
 * every synthesis that passed the output checks (not cut, not refused):
 * one that fails it is a failed synthesis like any other, and the next
 * model of the priority chain writes it (nothing charged if none passes).
 */
export type SynthesisPlan = {
  system: (nonce: string) => string;
  validate: SynthesisValidator;
  /** The stored answer from the valid synthesis: its labels named, the models' citations, the notice of a degraded answer. */
  finish: (text: string, labels: Record<string, string>, citations: readonly string[], notice: string | null, sources?: readonly WebSource[]) => string;
  /** A JSON answer (a /v1 response_format): nothing may be written around it, not even the notices about documents. */
  json?: boolean;
};

/** The Markdown answer (prompts.ts, synthesis.ts): its sections checked (answer-structure.ts), optionally bounded in length. */
export function markdownPlan(limit?: LengthLimit): SynthesisPlan {
  return {
    system: (nonce) => synthesisSystem(nonce, limit?.maxChars),
    validate: sectionValidator,
    finish: (text, labels, citations, notice, sources) => {
      const full = finishSynthesis(text, labels, citations, notice, sources);
      return limit ? cutAtSentence(full, limit) : full;
    },
  };
}
