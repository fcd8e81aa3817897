import { CLAUSE_BREAK, CONTRAST, DECLINES, HEDGE, HOLLOW, REFERRAL, REGRET } from "./refusal-lexicon.ts";
import { splitVoices } from "./refusal-text.ts";

/**
 * The local pre-filter of the refusal judgment (issue 43; docs/DECISIONS.md,
 * « Refusal judgment »). A refusal is a text that declines in the model's own
 * voice and says nothing else of use. So:
 *  1. what the model presents rather than says (quotations, code, a letter
 *     template, a translation, a dialogue, a JSON value meant as a template)
 *     is content, never a decline (src/ai/refusal-text.ts);
 *  2. a decline is looked for in the council's languages
 *     (src/ai/refusal-lexicon.ts); a decline qualified into a hedge
 *     (« sans plus d'informations », "for you") does not count;
 *  3. what remains is weighed: words on the subject, outside the decline and
 *     outside the padding refusals wear (thanks, apologies, referrals, talk
 *     about the request). Enough of them: the answer is kept, marked
 *     "partial" when a whole sentence declined something. None: a refusal.
 *     In between: "ambiguous", for the confirmation (src/ai/refusal-confirm.ts).
 * The provider's native refusal fields come first and need no text
 * (StopReason "refusal", read by the adapters).
 */
export type RefusalVerdict = "answer" | "partial" | "refusal" | "ambiguous";

export type RefusalHints = {
  /** The text was supposed to have a structure (a synthesis) and has not: a decline in it is a refusal. */
  structureMissing?: boolean;
  /** A synthesis: only its « Réponse consolidée » is the synthesiser's voice; the other sections report on the members. */
  synthesis?: boolean;
};

/** At least this many words on the subject, besides a decline: an answer. */
export const SUBSTANTIAL_WORDS = 12;
/** At most this many: nothing of use, a refusal. */
export const HOLLOW_WORDS = 4;

const words = new Intl.Segmenter(undefined, { granularity: "word" });
function wordCount(text: string): number {
  let n = 0;
  for (const s of words.segment(text)) if (s.isWordLike) n += 1;
  return n;
}

/** Sentences and clauses (a colon or semicolon opens a new one), with the Chinese and Japanese full stops. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s*|\n+|\s*[:;]\s+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Where a decline turns into what the model does say. */
const TURN = new RegExp(`${CONTRAST.source}|${CLAUSE_BREAK.source}`, "iu");

/** Where the first decline of a sentence ends (not a hedge), or -1. */
function declineEnd(sentence: string): number {
  if (HEDGE.test(sentence)) return -1;
  let end = -1;
  for (const re of DECLINES) {
    const m = re.exec(sentence);
    if (m && (end < 0 || m.index + m[0].length < end)) end = m.index + m[0].length;
  }
  return end;
}

/** An apology this short is only an apology (« Je suis vraiment désolé. »); « Malheureusement, le musée est fermé le lundi » is content. */
const REGRET_MAX_WORDS = 5;
/** A referral this short is only a referral (« Je vous suggère de vous adresser à un spécialiste. »). */
const REFERRAL_MAX_WORDS = 10;

/** A sentence says something on the subject: not padding, or padding with figures in it. */
function onSubject(sentence: string): boolean {
  if (/\p{N}/u.test(sentence)) return true;
  const n = wordCount(sentence);
  if ((REGRET.test(sentence) && n <= REGRET_MAX_WORDS) || (REFERRAL.test(sentence) && n <= REFERRAL_MAX_WORDS)) return false;
  return !HOLLOW.some((re) => re.test(sentence));
}

export type RefusalReading = {
  verdict: RefusalVerdict;
  /** Sentences that decline in the model's voice. */
  declines: number;
  /** Words on the subject outside them (framed text included). */
  contentWords: number;
};

export function readRefusal(text: string, hints: RefusalHints = {}): RefusalReading {
  const { voice, framed } = splitVoices(text, hints.synthesis === true);
  let declines = 0;
  let standalone = false;
  const content: string[] = [];
  const seen = new Set<string>();
  for (const sentence of sentences(voice)) {
    // A refusal repeats itself; a sentence said twice adds nothing.
    if (seen.has(sentence)) continue;
    seen.add(sentence);
    const end = declineEnd(sentence);
    if (end < 0) {
      if (onSubject(sentence)) content.push(sentence);
      continue;
    }
    declines += 1;
    // « Je ne peux pas X, mais voici… »: what follows the contrast is the answer.
    const rest = sentence.slice(end);
    const cut = TURN.exec(rest);
    const tail = cut ? rest.slice(cut.index + cut[0].length) : "";
    if (tail && declineEnd(tail) < 0 && onSubject(tail)) content.push(tail);
    else standalone = true;
  }
  if (declines === 0) return { verdict: "answer", declines, contentWords: 0 };
  const contentWords = wordCount(content.join(" ")) + wordCount(framed);
  if (hints.structureMissing) return { verdict: "refusal", declines, contentWords };
  const verdict: RefusalVerdict =
    contentWords >= SUBSTANTIAL_WORDS ? (standalone ? "partial" : "answer") : contentWords <= HOLLOW_WORDS ? "refusal" : "ambiguous";
  return { verdict, declines, contentWords };
}

/** A refusal by the pre-filter alone (an ambiguous text is not one: it is kept unless confirmed). */
export function looksLikeRefusal(text: string, hints: RefusalHints = {}): boolean {
  return readRefusal(text, hints).verdict === "refusal";
}
