import { randomBytes } from "node:crypto";

export type AnswerForSynthesis = { model: string; text: string; citations: string[] };

export type SynthesisInput = {
  nonce: string;
  /** The user turn given to the synthesiser: question + delimited answers. */
  prompt: string;
  /** "A" -> model name, kept for the UI and to name models in "Divergences". */
  labels: Record<string, string>;
};

/** Fisher-Yates with crypto randomness: the order must not reveal which model wrote what. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBytes(4).readUInt32BE(0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function buildSynthesisInput(question: string, answers: readonly AnswerForSynthesis[]): SynthesisInput {
  const nonce = randomBytes(6).toString("hex");
  const labels: Record<string, string> = {};
  const blocks = shuffled(answers).map((a, i) => {
    const label = String.fromCharCode(65 + i);
    labels[label] = a.model;
    // An answer that quotes the nonce could forge a closing delimiter; the nonce is random, but strip it anyway.
    const body = a.text.replaceAll(nonce, "");
    return `Réponse ${label} :\n<<<DEBUT-${nonce}-${label}>>>\n${body}\n<<<FIN-${nonce}-${label}>>>`;
  });
  const prompt = [`Question posée :\n${question}`, ...blocks].join("\n\n");
  return { nonce, prompt, labels };
}

/**
 * The stored answer: the synthesiser's text with each "Réponse X" named,
 * its own Sources section (if it wrote one anyway) replaced by the URLs the
 * models really cited, and the models that did not answer named at the end.
 */
export function finishSynthesis(
  text: string,
  labels: Record<string, string>,
  citations: readonly string[],
  missing: ReadonlyArray<{ model: string; reason: string }>,
): string {
  let body = text.replace(/\n#{1,6}\s*Sources\b[\s\S]*$/i, "").replace(/\n\*\*Sources\*\*[\s\S]*$/i, "").trim();
  body = body.replace(/Réponse ([A-Z])\b(?!\s*\()/g, (all, l: string) => (labels[l] ? `${all} (${labels[l]})` : all));
  const unique = [...new Set(citations)];
  const sources = unique.length > 0 ? unique.map((u) => `- ${u}`).join("\n") : "Aucune source citée par les modèles.";
  const parts = [body, `## Sources\n${sources}`];
  if (missing.length > 0) {
    parts.push(`_Sans réponse : ${missing.map((m) => `${m.model} (${m.reason})`).join(", ")}._`);
  }
  return parts.join("\n\n");
}
