import { SYNTHESIS_SECTIONS } from "./prompts.ts";

/**
 * The product's canonical layout of a synthesis (issue 43): each of the
 * prompt's sections under `## <title>` on a line of its own, LF line ends,
 * no code fence around the whole. Models write the same three sections in
 * many ways a reader accepts (a bold title, a title followed by its text on
 * the same line, English or singular titles, an emoji before it, CRLF,
 * non-breaking spaces); each title line is rewritten here, every other line
 * is left as written: a line is rewritten alone, whatever follows it.
 *
 * Hand-written rather than a Markdown parser: a parser sees `**Réponse
 * consolidée :** texte` as a paragraph, not a title followed by its text,
 * and what is recognised here is a title's words, not Markdown's syntax
 * (docs/DECISIONS.md, "Synthesis layouts").
 */

/** The words of each section's title, folded (no accents, lower case), at the start of a title line. */
const TITLE_WORDS: readonly RegExp[] = [
  /^(?:reponse consolidee|consolidated (?:answer|response))/,
  /^(?:points? (?:de |d'|d’)(?:consensus|accord)|consensus(?: points?)?|points? of (?:consensus|agreement)|areas? of agreement)/,
  /^(?:points? de divergences?|divergences?|points? of (?:divergence|disagreement)|disagreements?|areas? of disagreement)/,
];

/** Decorations before a title's words: emoji (a keycap « 1️⃣ » too), numbering (« 1. », « II - »), stray emphasis. */
const LEADING = /^(?:\d\uFE0F?\u20E3|\p{Extended_Pictographic}|\uFE0F|\u200D|[*_`\s])*(?:(?:\d+|[ivx]+)\s*[.)\-–:]\s+)?[*_`\s]*/iu;
/** What may close a title: a bracket (« (synthèse) »), emphasis, emoji, a colon or dash, then the text of the section if any. */
const AFTER = /^[*_`\s]*(?:\([^)]*\)[*_`\s]*)?(?:\p{Extended_Pictographic}|\uFE0F)*[*_`\s]*(?:[:：\-–—][*_`\s]*)?/u;

/** Lower case without accents, one character for one (indices stay those of the original). */
function fold(text: string): string {
  return [...text]
    .map((c) => {
      const base = c.normalize("NFD").replace(/\p{M}/gu, "");
      return (base.length === c.length ? base : c).toLocaleLowerCase("fr");
    })
    .join("")
    .replace(/\u00A0|\u202F/g, " ");
}

/** `text` is one of the section titles (with its decorations), then maybe the section's first words: which, and those words. */
function sectionTitle(candidate: string, textAllowed: boolean): { at: number; text: string } | null {
  const lead = LEADING.exec(candidate)?.[0].length ?? 0;
  const folded = fold(candidate.slice(lead));
  for (const [at, words] of TITLE_WORDS.entries()) {
    const m = words.exec(folded);
    if (!m || /^[\p{L}\p{N}]/u.test(folded.slice(m[0].length))) continue;
    const after = candidate.slice(lead + m[0].length);
    const tail = AFTER.exec(after)?.[0] ?? "";
    const text = after.slice(tail.length).trim();
    // Without a colon or dash, words after the title are a sub-heading's (« Divergences entre les modèles »), not its text.
    if (text && (!textAllowed || !/[:：\-–—]/.test(tail))) continue;
    return { at, text };
  }
  return null;
}

/**
 * A title line: a Markdown heading, or a line opening with a bold title
 * (`**…**` or `__…__`) after which the section's text may follow on the
 * same line. Null for any other line, a plain sentence mentioning a section included.
 */
export function titleLine(line: string): { at: number; text: string } | null {
  const plain = line.replace(/[\u00A0\u202F]/g, " ");
  const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(plain);
  const body = heading ? heading[1]! : plain;
  const bold = /^[ \t]*((?:\p{Extended_Pictographic}|\uFE0F|\s)*)(\*\*|__)(.+?)\2(.*)$/u.exec(body);
  if (bold) {
    const inside = sectionTitle(`${bold[1]}${bold[3]}`, true);
    if (inside && !inside.text) {
      const text = bold[4]!.replace(AFTER, "").trim();
      return { at: inside.at, text };
    }
    if (inside) return inside;
  }
  return heading ? sectionTitle(body, true) : null;
}

/** A fence around the whole text (```markdown … ```): the synthesis is its content. */
const OPENING_FENCE = /^[ \t]*(?:```|~~~)[ \t]*(?:markdown|md)?[ \t]*\n/i;
const CLOSING_FENCE = /\n[ \t]*(?:```|~~~)[ \t]*\s*$/;

/**
 * The text in the canonical layout. `written` may be the beginning of a text
 * still being written: a closing fence is dropped only at the end of what is
 * given, so a fence line that turns out to be inside the text comes back when more follows.
 */
export function canonicalLayout(written: string): string {
  let text = written.replace(/\r\n?/g, "\n");
  const start = text.trimStart();
  if (OPENING_FENCE.test(start)) text = start.replace(OPENING_FENCE, "").replace(CLOSING_FENCE, "");
  return text
    .split("\n")
    .map((line) => {
      const title = titleLine(line);
      if (!title) return line;
      const heading = `## ${SYNTHESIS_SECTIONS[title.at]}`;
      return title.text ? `${heading}\n${title.text}` : heading;
    })
    .join("\n");
}
