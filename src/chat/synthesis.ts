import { randomBytes } from "node:crypto";

export type AnswerForSynthesis = { model: string; text: string; citations: string[] };

export type SynthesisInput = {
  nonce: string;
  /** The user turn given to the synthesiser: context, question and answers, each delimited. */
  prompt: string;
  /** "A" -> model name, kept for the UI and to name models in "Divergences". */
  labels: Record<string, string>;
};

/** Each answer is capped before it goes into the synthesis prompt: six long answers must not crowd out the synthesis. */
const ANSWER_CAP_CHARS = 6_000;

/** Fisher-Yates with crypto randomness: the order must not reveal which model wrote what. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBytes(4).readUInt32BE(0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function cap(text: string): string {
  return text.length > ANSWER_CAP_CHARS ? `${text.slice(0, ANSWER_CAP_CHARS)}\n[… réponse abrégée pour la synthèse]` : text;
}

/**
 * The synthesiser's input: the condensed conversation so far, the question
 * and every answer, each in its own delimiter carrying a random nonce (a
 * text that quotes the nonce has it removed, so none can close its block).
 */
export function buildSynthesisInput(question: string, answers: readonly AnswerForSynthesis[], context = ""): SynthesisInput {
  const nonce = randomBytes(6).toString("hex");
  const clean = (text: string) => text.replaceAll(nonce, "");
  const labels: Record<string, string> = {};
  const blocks = shuffled(answers).map((a, i) => {
    const label = String.fromCharCode(65 + i);
    labels[label] = a.model;
    return `Réponse ${label} :\n<<<DEBUT-${nonce}-${label}>>>\n${clean(cap(a.text))}\n<<<FIN-${nonce}-${label}>>>`;
  });
  const parts = [];
  if (context) parts.push(`Contexte de la conversation (tours précédents, résumés) :\n<<<CONTEXTE-${nonce}>>>\n${clean(context)}\n<<<FIN-CONTEXTE-${nonce}>>>`);
  parts.push(`Question posée :\n<<<QUESTION-${nonce}>>>\n${clean(question)}\n<<<FIN-QUESTION-${nonce}>>>`, ...blocks);
  return { nonce, prompt: parts.join("\n\n"), labels };
}

/** Only a last section titled exactly "Sources" (a heading or a bold line), with no other section after it. */
const TRAILING_SOURCES = /\n(?:#{1,6}[ \t]*Sources|\*\*Sources\*\*)[ \t]*:?[ \t]*\n(?![\s\S]*\n(?:#{1,6}[ \t]|\*\*[^*\n]+\*\*[ \t]*\n))[\s\S]*$/i;

function stripTrailingSources(text: string): string {
  return `\n${text}\n`.replace(TRAILING_SOURCES, "").trim();
}

/**
 * The stored answer: the notice (if the answer is degraded) above the
 * synthesiser's text, each "Réponse X" named, its own trailing Sources
 * section (if it wrote one anyway) replaced by the URLs the models really cited.
 */
export function finishSynthesis(text: string, labels: Record<string, string>, citations: readonly string[], notice: string | null): string {
  let body = stripTrailingSources(text);
  body = body.replace(/Réponse ([A-Z])\b(?!\s*\()/g, (all, l: string) => (labels[l] ? `${all} (${labels[l]})` : all));
  const unique = [...new Set(citations)];
  const sources = unique.length > 0 ? unique.map((u) => `- ${u}`).join("\n") : "Aucune source citée par les modèles.";
  return [notice ? `> ${notice}` : null, body, `## Sources\n${sources}`].filter(Boolean).join("\n\n");
}
