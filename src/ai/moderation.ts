import { shownCouncil } from "../council/council-runtime.ts";
import type { Deps } from "../deps.ts";
import { insertAiCall } from "./ai-calls.queries.ts";
import { classifyError } from "./provider-errors.ts";
import { AppError } from "../lib/errors.ts";

const MODERATION_TIMEOUT_MS = 5_000;

/**
 * The local rule list, used when no OpenAI key is set or the moderation call
 * fails: clear requests for serious harm only, so an honest question is never
 * refused by a word out of context.
 */
const LOCAL_RULES: ReadonlyArray<{ category: string; pattern: RegExp }> = [
  {
    category: "violence",
    pattern:
      /\b(comment|aide[- ]moi [àa]|je veux)\b.{0,40}\b(tuer|assassiner|empoisonner|torturer)\b.{0,30}\b(quelqu'un|une personne|mon|ma|mes|sa|son|ses|un enfant)\b/i,
  },
  {
    category: "weapons",
    pattern: /\b(fabriquer|construire|faire|assembler)\b.{0,30}\b(bombe|explosif|engin explosif|arme chimique|gaz sarin|arme biologique)\b/i,
  },
  { category: "weapons", pattern: /\b(how to|help me)\b.{0,30}\b(make|build)\b.{0,20}\b(bomb|explosive|nerve agent|bioweapon)\b/i },
  { category: "self-harm", pattern: /\b(comment|meilleure fa[çc]on de)\b.{0,30}\b(me suicider|mettre fin [àa] mes jours)\b/i },
  { category: "sexual/minors", pattern: /\b(p[ée]dopornographi\w*|child porn\w*|csam)\b/i },
  {
    category: "hate",
    pattern: /\b(exterminer|g[ée]nocide contre|il faut tuer)\b.{0,30}\b(les )?(juifs|musulmans|noirs|arabes|chr[ée]tiens|homosexuels|roms)\b/i,
  },
];

function localModeration(text: string): { flagged: boolean; categories: string[] } {
  const categories = LOCAL_RULES.filter((r) => r.pattern.test(text)).map((r) => r.category);
  return { flagged: categories.length > 0, categories: [...new Set(categories)] };
}

/**
 * OpenAI moderation when its key is set (logged like any AI call), the local
 * rules otherwise. An outage (error, timeout, breaker open) is logged as a
 * warning and handled as MODERATION_ON_OUTAGE says: the local rules, or a
 * French 503 that charges nothing.
 */
export async function moderate(deps: Deps, text: string, ctx: { userId: number; conversationId?: number | null }) {
  const client = deps.ai.moderation;
  if (!client) return { ...localModeration(text), source: "local" as const };
  const breaker = deps.ai.moderationBreaker;
  let verdict: { flagged: boolean; categories: string[] } | null = null;
  let error: string | null = "circuit ouvert";
  if (!breaker.isOpen()) {
    // The council chooses the moderation model (council_settings.moderation_model); the key stays OPENAI_API_KEY.
    const model = (await shownCouncil(deps)).moderationModel;
    const started = performance.now();
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), MODERATION_TIMEOUT_MS);
    let outcome: "ok" | "error" | "timeout" = "ok";
    error = null;
    try {
      verdict = await client.moderate(text, ctl.signal, model);
      breaker.success();
    } catch (e) {
      const f = classifyError(e, ctl.signal.aborted ? "deadline" : null);
      outcome = f.kind === "timeout" ? "timeout" : "error";
      error = f.reason;
      breaker.failure();
    } finally {
      clearTimeout(timer);
    }
    await insertAiCall(deps.db, {
      userId: ctx.userId,
      conversationId: ctx.conversationId ?? null,
      model,
      provider: "openai",
      purpose: "moderation",
      outcome,
      error,
      latencyMs: Math.round(performance.now() - started),
      createdAt: deps.clock.now(),
    });
  }
  if (verdict) return { ...verdict, source: "openai" as const };
  const policy = deps.config.ai.moderationOnOutage;
  deps.log.warn("moderation unavailable", { reason: error, policy });
  if (policy === "refuse") throw new AppError("MODERATION_UNAVAILABLE");
  return { ...localModeration(text), source: "local" as const };
}
