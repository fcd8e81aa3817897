import type { OutputValidator } from "../ai/output-checks.ts";
import { frChat } from "../i18n/fr-chat.ts";
import { SYNTHESIS_SECTIONS } from "./prompts.ts";
import { stripTrailingSources } from "./synthesis.ts";

/**
 * What makes a synthesiser's text the answer the product promised: null when
 * it is, otherwise a short French reason (stored with the failed attempt).
 * The synthesis step receives it as a parameter: the page and plain /v1 use
 * the section check below; a mode with another promised shape (structured
 * output on /v1) passes its own.
 */
export type SynthesisValidator = OutputValidator;

/** A title line: a Markdown heading (any level) or a line in bold alone, with an optional colon. */
const TITLE = /^\s*(?:#{1,6}[ \t]+(.+?)[ \t]*#*|\*\*(.+?)\*\*)[ \t]*:?[ \t]*$/;

/** A title as compared: no emphasis, numbering ("1.", "II -"), accents, case or closing colon; what a model varies. */
function normalise(title: string): string {
  return title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[*_`]/g, "")
    .replace(/^\s*(?:\d+|[ivx]+)\s*[.)\-–:]\s*/i, "")
    .replace(/[\s:#.]+$/g, "")
    .trim()
    .toLocaleLowerCase("fr");
}

/**
 * The prompt's sections (SYNTHESIS_SECTIONS), each present, in order, each
 * followed by some text before the next one. Other sections (sub-headings, a
 * trailing Sources that is replaced anyway) may come in between.
 */
export const sectionValidator: SynthesisValidator = (text) => {
  const wanted = SYNTHESIS_SECTIONS.map(normalise);
  const content = wanted.map(() => 0);
  let current = -1;
  for (const line of stripTrailingSources(text).split("\n")) {
    const m = TITLE.exec(line);
    const at = m ? wanted.indexOf(normalise(m[1] ?? m[2] ?? "")) : -1;
    if (at >= 0) {
      // A required section met again, or out of order: not the structure asked for.
      if (at !== current + 1) return frChat.reason.structure;
      current = at;
    } else if (current >= 0 && line.trim()) content[current]! += 1;
  }
  if (current !== wanted.length - 1 || content.some((n) => n === 0)) return frChat.reason.structure;
  return null;
};
