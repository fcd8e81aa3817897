/**
 * Honest degradation (docs/DECISIONS.md, "Degraded answers"): when fewer than
 * all the models asked answered, or a fallback wrote the synthesis, a notice
 * above the answer says so, from how many answers and why each is missing.
 * The cost rule: an answer built from fewer than FREE_UNDER_ANSWERS answers is
 * stored and shown, but not charged.
 */
import { frChat } from "../i18n/fr-chat.ts";
import type { Degradation, Missing } from "../contracts/answer.ts";

export const FREE_UNDER_ANSWERS = 3;

export function degradation(p: { answered: number; asked: number; missing: Missing[]; primary: string; intended: string }): Degradation | null {
  const fallback = p.primary !== p.intended;
  if (p.answered >= p.asked && !fallback) return null;
  return { answered: p.answered, asked: p.asked, missing: p.missing, fallback_from: fallback ? p.intended : null, charged: p.answered >= FREE_UNDER_ANSWERS };
}

export function isCharged(d: Degradation | null): boolean {
  return d === null || d.charged;
}

/**
 * The French notice shown above the answer (API result and page): only what
 * happened. « Réponse partielle » only when answers are missing; a synthesis
 * written by another model from every answer is not partial (issue 43).
 */
export function noticeText(d: Degradation, primary: string): string {
  const parts = d.answered < d.asked ? [frChat.degraded.partial(d.answered, d.asked)] : [];
  // A member that declined did answer: said as a refusal, not as a missing answer.
  const declined = d.missing.filter((m) => m.reason === frChat.reason.refusal);
  const absent = d.missing.filter((m) => m.reason !== frChat.reason.refusal);
  if (absent.length > 0) parts.push(frChat.degraded.missing(absent.map((m) => `${m.name} (${m.reason})`).join(", ")));
  if (declined.length > 0) parts.push(frChat.degraded.declined(declined.map((m) => m.name)));
  if (d.fallback_from) parts.push(frChat.degraded.fallback(primary, d.fallback_from));
  if (!d.charged) parts.push(frChat.degraded.notCharged(FREE_UNDER_ANSWERS));
  return parts.join(" ");
}
