import { frChat } from "../i18n/fr-chat.ts";
import { randomBytes } from "node:crypto";
import { canonicalLayout } from "./answer-layout.ts";
import { sourceLine } from "../web-search/source-line.ts";
import type { WebSource } from "../web-search/web-sources.ts";

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
    return answerBlock(nonce, label, a.text);
  });
  const parts = [];
  if (context) parts.push(`Contexte de la conversation (tours précédents, résumés) :\n<<<CONTEXTE-${nonce}>>>\n${clean(context)}\n<<<FIN-CONTEXTE-${nonce}>>>`);
  parts.push(questionBlock(nonce, question), ...blocks);
  return { nonce, prompt: parts.join("\n\n"), labels };
}

/** The question, delimited as data (the synthesis and the peer review show it the same way). */
export function questionBlock(nonce: string, question: string): string {
  return `Question posée :\n<<<QUESTION-${nonce}>>>\n${question.replaceAll(nonce, "")}\n<<<FIN-QUESTION-${nonce}>>>`;
}

/** One answer under its label, capped and delimited as data (a text that quotes the nonce has it removed). */
export function answerBlock(nonce: string, label: string, text: string): string {
  return `Réponse ${label} :\n<<<DEBUT-${nonce}-${label}>>>\n${cap(text).replaceAll(nonce, "")}\n<<<FIN-${nonce}-${label}>>>`;
}

/** Only a last section titled exactly "Sources" (a heading or a bold line), with no other section after it. */
const TRAILING_SOURCES = /\n(?:#{1,6}[ \t]*Sources|\*\*Sources\*\*)[ \t]*:?[ \t]*\n(?![\s\S]*\n(?:#{1,6}[ \t]|\*\*[^*\n]+\*\*[ \t]*\n))[\s\S]*$/i;

/** Where the synthesiser's own trailing Sources section begins in `text` (the newline before its title), or null. */
function trailingSourcesAt(text: string): number | null {
  const m = TRAILING_SOURCES.exec(`\n${text}\n`);
  return m ? Math.max(0, m.index - 1) : null;
}

export function stripTrailingSources(text: string): string {
  const at = trailingSourcesAt(text);
  return (at === null ? text : text.slice(0, at)).trim();
}

/**
 * Each "Réponse X" followed by its model's name, unless a bracket already follows it: "Réponse A (GPT-4)",
 * or "Réponse A de GPT-4" where the label is itself inside brackets (never "(Réponse A (GPT-4))"). Whether
 * it is inside is read from the line before it, which is final once written.
 */
function nameLabels(body: string, labels: Record<string, string>): string {
  return body.replace(/Réponse ([A-Z])\b(?!\s*\()/g, (all, l: string, at: number) => {
    if (!labels[l]) return all;
    const before = body.slice(body.lastIndexOf("\n", at) + 1, at);
    const open = (before.match(/\(/g)?.length ?? 0) - (before.match(/\)/g)?.length ?? 0);
    return open > 0 ? `${all} de ${labels[l]}` : `${all} (${labels[l]})`;
  });
}

function noticeLine(notice: string | null): string | null {
  return notice ? `> ${notice}` : null;
}

/**
 * The stored answer: the notice (if the answer is degraded) above the
 * synthesiser's text in the canonical layout (answer-layout.ts), each "Réponse X" named, its own trailing Sources
 * section (if it wrote one anyway) replaced by the web search's numbered
 * sources and the URLs the models really cited.
 */
export function finishSynthesis(
  text: string,
  labels: Record<string, string>,
  citations: readonly string[],
  notice: string | null,
  web: readonly WebSource[] = [],
): string {
  const body = nameLabels(stripTrailingSources(canonicalLayout(text)), labels);
  // The web search's numbered sources first (their titles and domains), then what a model cited besides them.
  const unique = [...new Set(citations)].filter((u) => !web.some((s) => s.url === u));
  const lines = [...web.map(sourceLine), ...unique.map((u) => `- ${u}`)];
  const sources = lines.length > 0 ? lines.join("\n") : frChat.reply.noSources;
  return [noticeLine(notice), body, `## Sources\n${sources}`].filter(Boolean).join("\n\n");
}
