import type { OutputValidator } from "../ai/output-checks.ts";
import { frChat } from "../i18n/fr-chat.ts";
import { SYNTHESIS_SECTIONS } from "./prompts.ts";
import { canonicalLayout, titleLine } from "./answer-layout.ts";
import { stripTrailingSources } from "./synthesis.ts";

/**
 * What makes a synthesiser's text the answer the product promised: null when
 * it is, otherwise a short French reason (stored with the failed attempt).
 * The synthesis step receives it as a parameter: the page and plain /v1 use
 * the section check below; a mode with another promised shape (structured
 * output on /v1) passes its own.
 */
export type SynthesisValidator = OutputValidator;

/**
 * The prompt's sections (SYNTHESIS_SECTIONS), each present, in order, each
 * followed by some text before the next one, in whatever layout a reader
 * accepts (answer-layout.ts: the stored answer is that text in the canonical
 * layout). Other sections (sub-headings, a trailing Sources that is replaced
 * anyway) may come in between. Out of order or empty: rejected
 * (docs/DECISIONS.md, "Synthesis layouts").
 */
export const sectionValidator: SynthesisValidator = (text) => {
  const content = SYNTHESIS_SECTIONS.map(() => 0);
  let current = -1;
  for (const line of stripTrailingSources(canonicalLayout(text)).split("\n")) {
    const title = titleLine(line);
    if (title) {
      // A required section met again, or out of order: not the structure asked for.
      if (title.at !== current + 1) return frChat.reason.structure;
      current = title.at;
    } else if (current >= 0 && line.trim()) content[current]! += 1;
  }
  if (current !== SYNTHESIS_SECTIONS.length - 1 || content.some((n) => n === 0)) return frChat.reason.structure;
  return null;
};
