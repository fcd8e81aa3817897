import { frChat } from "../i18n/fr-chat.ts";
import { z } from "zod";
import { callModel } from "../ai/model-call.ts";
import type { ModelDef } from "../ai/registry.ts";
import type { Council } from "../council/council-runtime.ts";
import type { Deps } from "../deps.ts";
import { CLARIFY_MAX_TOKENS, CLARIFY_SYSTEM } from "./prompts.ts";

/** The pre-pass may delay a question this long at most; it never feeds the answer breaker (see callModel). */
const CLARIFY_TIMEOUT_MS = 5_000;
const MAX_QUESTIONS = 3;

const GREETINGS = /^(bonjour|bonsoir|salut|coucou|hello|hi|hey|test|aide|help|merci|ok|oui|non|\?+)[\s!.?]*$/i;

/**
 * Too vague to send anywhere: a greeting alone, or fewer than two words and
 * a handful of letters ("aide", "python ?"). Asking for details costs nothing.
 */
export function isTooVague(message: string, followUp = false): boolean {
  const text = message.trim();
  if (GREETINGS.test(text)) return true;
  // "Pourquoi ?" after an answer is a real question: the conversation gives it its subject.
  if (followUp) return !/\p{L}{3,}/u.test(text);
  const words = text.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w));
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return words.length < 2 || letters < 8;
}

export const DETAIL_REQUEST_TEXT = frChat.reply.tooShort;

const verdictSchema = z.object({
  needs_clarification: z.boolean(),
  questions: z.array(z.string()).optional().default([]),
});

/** The first JSON object in a model's text (models like to wrap it in prose or a code fence). */
function parseVerdict(text: string): string[] | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const parsed = verdictSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    if (!parsed.success) return null;
    if (!parsed.data.needs_clarification) return [];
    return parsed.data.questions
      .map((q) => q.trim())
      .filter(Boolean)
      .slice(0, MAX_QUESTIONS);
  } catch {
    return null;
  }
}

/**
 * The pre-pass: questions to ask back, or [] to go straight to final
 * processing. Any failure (no model, timeout, invalid JSON) means "no
 * clarification": the pre-pass may never block a question.
 */
export async function clarifyingQuestions(
  deps: Deps,
  council: Council,
  available: readonly ModelDef[],
  question: string,
  ctx: { userId: number; conversationId: number | null },
  context = "",
): Promise<string[]> {
  const model = clarifierOf(council, available);
  if (!model) return [];
  const content = context ? `Conversation jusqu'ici :\n${context}\n\nNouveau message :\n${question}` : question;
  const outcome = await callModel(
    deps,
    model,
    { system: CLARIFY_SYSTEM, messages: [{ role: "user", content }], maxTokens: CLARIFY_MAX_TOKENS },
    { purpose: "clarification", timeoutMs: Math.min(CLARIFY_TIMEOUT_MS, deps.ai.timeoutMs), ...ctx },
  );
  if (!outcome.ok) return [];
  const verdict = parseVerdict(outcome.text);
  if (verdict === null) deps.log.warn("clarification verdict unreadable", { model: model.name, chars: outcome.text.length });
  return verdict ?? [];
}

export function clarificationText(questions: readonly string[]): string {
  if (questions.length === 1) return questions[0]!;
  return [frChat.reply.clarifyIntro, ...questions.map((q, i) => `${i + 1}. ${q}`)].join("\n");
}

/**
 * Who clarifies: the council's clarifier (Claude 3 Haiku as seeded) when it
 * is available, else the available member with the cheapest output, cheap
 * models being the fast ones (DECISIONS.md, "Clarification").
 */
export function clarifierOf(council: Council, available: readonly ModelDef[]): ModelDef | undefined {
  const chosen = available.find((m) => m.key === council.clarifier?.key);
  return chosen ?? [...available].sort((a, b) => a.price.outEur - b.price.outEur)[0];
}
