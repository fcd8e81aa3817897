import type { Deps } from "../deps.ts";
import { insertAiCall } from "./ai.calls.queries.ts";
import { classifyError } from "./ai.errors.ts";

const MODERATION_TIMEOUT_MS = 10_000;

/**
 * The local rule list, used when no OpenAI key is set or the moderation call
 * fails: clear requests for serious harm only, so an honest question is never
 * refused by a word out of context.
 */
const LOCAL_RULES: ReadonlyArray<{ category: string; pattern: RegExp }> = [
  { category: "violence", pattern: /\b(comment|aide[- ]moi [àa]|je veux)\b.{0,40}\b(tuer|assassiner|empoisonner|torturer)\b.{0,30}\b(quelqu'un|une personne|mon|ma|mes|sa|son|ses|un enfant)\b/i },
  { category: "weapons", pattern: /\b(fabriquer|construire|faire|assembler)\b.{0,30}\b(bombe|explosif|engin explosif|arme chimique|gaz sarin|arme biologique)\b/i },
  { category: "weapons", pattern: /\b(how to|help me)\b.{0,30}\b(make|build)\b.{0,20}\b(bomb|explosive|nerve agent|bioweapon)\b/i },
  { category: "self-harm", pattern: /\b(comment|meilleure fa[çc]on de)\b.{0,30}\b(me suicider|mettre fin [àa] mes jours)\b/i },
  { category: "sexual/minors", pattern: /\b(p[ée]dopornographi\w*|child porn\w*|csam)\b/i },
  { category: "hate", pattern: /\b(exterminer|g[ée]nocide contre|il faut tuer)\b.{0,30}\b(les )?(juifs|musulmans|noirs|arabes|chr[ée]tiens|homosexuels|roms)\b/i },
];

export function localModeration(text: string): { flagged: boolean; categories: string[] } {
  const categories = LOCAL_RULES.filter((r) => r.pattern.test(text)).map((r) => r.category);
  return { flagged: categories.length > 0, categories: [...new Set(categories)] };
}

/** OpenAI moderation when its key is set (logged like any AI call), the local rules otherwise. */
export async function moderate(deps: Deps, text: string, ctx: { userId: number; conversationId?: number | null }) {
  const client = deps.ai.moderation;
  if (!client) return { ...localModeration(text), source: "local" as const };
  const started = performance.now();
  const deadline = AbortSignal.timeout(MODERATION_TIMEOUT_MS);
  let verdict: { flagged: boolean; categories: string[] } | null = null;
  let error: string | null = null;
  let outcome: "ok" | "error" | "timeout" = "ok";
  try {
    verdict = await client.moderate(text, deadline);
  } catch (e) {
    const f = classifyError(e, deadline);
    outcome = f.kind;
    error = f.reason;
  }
  insertAiCall(deps.db, {
    userId: ctx.userId,
    conversationId: ctx.conversationId ?? null,
    model: "omni-moderation-latest",
    provider: "openai",
    purpose: "moderation",
    outcome,
    error,
    latencyMs: Math.round(performance.now() - started),
    createdAt: deps.clock.now(),
  });
  // A moderation outage must not take the whole product down: the local rules still apply.
  if (!verdict) return { ...localModeration(text), source: "local" as const };
  return { ...verdict, source: "openai" as const };
}
