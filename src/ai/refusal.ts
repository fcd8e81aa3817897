/**
 * Recognising a model that declines in plain text, French or English, however
 * it words it. One phrase is never enough: a text is a refusal when it is
 * short (REFUSAL_MAX_CHARS), carries a refusal marker (a verb of declining
 * bearing on the request itself, anywhere in the text) and at least one more
 * signal: it opens with the marker, it is very short, it apologises or
 * invokes its rules, or (for a synthesis) it lacks the structure asked for.
 * The provider's native refusal fields are read by the adapters (StopReason
 * "refusal") and need no text at all.
 */

/** Longer than this, a text that declines somewhere is an answer that says what it will not do, not a refusal. */
export const REFUSAL_MAX_CHARS = 1_500;
/** This short, a declining text has no room for anything else. */
const VERY_SHORT_CHARS = 400;

const ABLE_FR =
  "(?:je\\s+ne\\s+(?:peux|pourrai|pourrais|suis\\s+pas\\s+en\\s+mesure\\s+d(?:e|['’])|suis\\s+pas\\s+autorisée?\\s+à|vais\\s+pas\\s+pouvoir|saurais)|il\\s+ne\\s+m['’]est\\s+pas\\s+possible\\s+d(?:e|['’])|il\\s+m['’]est\\s+impossible\\s+d(?:e|['’])|je\\s+ne\\s+suis\\s+pas\\s+en\\s+mesure\\s+d(?:e|['’]))";
const ACT_FR =
  "(?:vous\\s+|t['’]\\s*|te\\s+)?(?:aider|assister|répondre|rédiger|traiter|satisfaire|donner\\s+suite|accéder|fournir|produire|écrire|accomplir|effectuer|réaliser|générer|créer|participer|apporter\\s+(?:mon|une)\\s+aide|accéder)";
const ABLE_EN =
  "(?:(?<![\\p{L}\\p{N}])i(?:\\s+can(?:not|['’]t|\\s+not)|\\s+(?:won['’]t|will\\s+not)(?:\\s+be\\s+able\\s+to)?|\\s+am\\s+(?:unable|not\\s+able)\\s+to|['’]m\\s+(?:unable|not\\s+able)\\s+to|\\s+must\\s+decline\\s+to|\\s+am\\s+not\\s+(?:allowed|permitted)\\s+to))";
const ACT_EN = "(?:help(?!\\s+but)|assist|comply|fulfil+|provide|complete|write|answer|respond|produce|generate|create|engage|draft|support|process)";

/**
 * The object of the declining verb must be the request (or nothing: the
 * sentence ends there). « Je ne peux pas répondre avec certitude » is a hedge,
 * « je ne peux pas répondre à cette demande » a refusal.
 */
const OBJECT =
  "(?:[^.!?\\n]{0,40}?(?<![\\p{L}\\p{N}])(?:cette|ta|votre|ce|ces|vos|tes|la|à\\s+(?:cela|ça))\\s+(?:demande|requête|question|synthèse|tâche|sujet|contenu|type\\s+de\\s+(?:demande|contenu|requête))" +
  "|[^.!?\\n]{0,40}?(?<![\\p{L}\\p{N}])(?:this|that|your|such|the)\\s+(?:request|question|task|synthesis|summary|content|kind\\s+of\\s+(?:request|content))" +
  // Or the sentence ends on the request named by a pronoun (« …avec ça. », "…for that.") or right after the verb.
  "|[^.!?\\n]{0,50}?(?<![\\p{L}\\p{N}])(?:cela|ça|là-dessus|ce\\s+(?:point|sujet)|that|this|it)\\s*[.!]|\\s*[.!])";

/**
 * A declining verb that bears on how (not whether) the model answers: a hedge
 * that opens a real answer (« je ne peux pas répondre à cette question avec
 * certitude, mais… »), never a refusal.
 */
const HEDGE =
  /(?<![\p{L}\p{N}])(?:avec\s+certitude|certitude|de\s+(?:manière|façon)\s+(?:certaine|définitive|précise|exhaustive|personnalisée|catégorique)|précisément|exactement|à\s+coup\s+sûr|personnalisée?|en\s+détail|sans\s+(?:plus\s+de|davantage\s+de|connaître|avoir)|with\s+certainty|definitively|precisely|exactly|for\s+sure|in\s+detail|without\s+(?:more|further|knowing)|personali[sz]ed|fully|completely)(?![\p{L}\p{N}])/iu;

const MARKERS: RegExp[] = [
  new RegExp(`${ABLE_FR}\\s*(?:pas\\s+)?${ACT_FR}${OBJECT}`, "giu"),
  new RegExp(`${ABLE_EN}\\s+${ACT_EN}${OBJECT}`, "giu"),
  /(?<![\p{L}\p{N}])je\s+(?:dois|me\s+dois\s+de|vais\s+devoir)\s+(?:malheureusement\s+|respectueusement\s+)?(?:refuser|décliner)(?![\p{L}\p{N}])/giu,
  /(?<![\p{L}\p{N}])je\s+(?:refuse|décline)\s+(?:de\s+|cette|votre|ta)/giu,
  /(?<![\p{L}\p{N}])i\s+(?:must|have\s+to|need\s+to)\s+(?:respectfully\s+)?(?:decline|refuse)(?![\p{L}\p{N}])/giu,
  /(?<![\p{L}\p{N}])(?:i['’]m\s+not|i\s+am\s+not|i\s+don['’]t\s+feel)\s+comfortable\s+(?:writing|providing|helping|answering|doing|creating|with)(?![\p{L}\p{N}])/giu,
  /(?<![\p{L}\p{N}])je\s+ne\s+suis\s+pas\s+à\s+l['’]aise\s+(?:pour|avec\s+(?:cette|ta|votre)\s+demande)/giu,
];

/** Inside quotation marks: the text talks about a refusal, it does not refuse. */
function quoted(text: string, at: number): boolean {
  const before = text.slice(0, at);
  const count = (re: RegExp) => (before.match(re) ?? []).length;
  return count(/[«“]/g) > count(/[»”]/g) || count(/"/g) % 2 === 1;
}

/** Where each marker starts in `text`, leaving out those whose sentence is a hedge. */
function markerPositions(text: string): number[] {
  const found: number[] = [];
  for (const re of MARKERS) {
    for (const m of text.matchAll(re)) {
      const end = text.slice(m.index).search(/[.!?\n]/);
      const sentence = end < 0 ? text.slice(m.index) : text.slice(m.index, m.index + end + 1);
      if (!HEDGE.test(sentence) && !quoted(text, m.index)) found.push(m.index);
    }
  }
  return found;
}

/** Words that come with a refusal: apologies, regret, the model's rules. Each alone is ordinary prose. */
const COMPANIONS: RegExp[] = [
  /(?<![\p{L}\p{N}])(?:désolée?|navrée?|malheureusement|je\s+regrette|hélas)(?![\p{L}\p{N}])/iu,
  /(?<![\p{L}\p{N}])(?:sorry|unfortunately|i\s+apologi[sz]e|regrettably)(?![\p{L}\p{N}])/iu,
  /(?<![\p{L}\p{N}])(?:en\s+tant\s+qu['’](?:ia|intelligence\s+artificielle|assistant|modèle)|as\s+an\s+ai|(?:just|only)\s+a\s+language\s+model|(?:je\s+ne\s+suis\s+qu['’]un|simple)\s+modèle\s+de\s+langage)(?![\p{L}\p{N}])/iu,
  /(?<![\p{L}\p{N}])(?:mes\s+(?:consignes|directives|règles|principes)|(?:politiques?|règles)\s+d['’]utilisation|my\s+(?:guidelines|policies|principles)|usage\s+polic(?:y|ies)|content\s+polic(?:y|ies))(?![\p{L}\p{N}])/iu,
];

/** Where the first sentence ends (the marker "opens" the text when it starts before this). */
function firstSentenceEnd(text: string): number {
  const m = /[.!?\n]/.exec(text.slice(20));
  return m ? m.index + 21 : text.length;
}

export type RefusalHints = {
  /** The text was supposed to have a structure (a synthesis) and has not. */
  structureMissing?: boolean;
};

/** The signals a text carries, for tests and the operator's log. */
export function refusalSignals(text: string, hints: RefusalHints = {}): string[] {
  const t = text.trim();
  if (!t || t.length > REFUSAL_MAX_CHARS) return [];
  const at = markerPositions(t);
  if (at.length === 0) return [];
  const signals = ["marker"];
  if (Math.min(...at) < firstSentenceEnd(t)) signals.push("opening");
  if (t.length <= VERY_SHORT_CHARS) signals.push("very-short");
  if (COMPANIONS.some((re) => re.test(t))) signals.push("companion");
  if (hints.structureMissing) signals.push("no-structure");
  return signals;
}

/** A refusal: a marker and at least one other signal, in a short text. */
export function looksLikeRefusal(text: string, hints: RefusalHints = {}): boolean {
  return refusalSignals(text, hints).length >= 2;
}
