import { callModel } from "../ai/ai.call.ts";
import { byPriority, type ModelDef } from "../ai/ai.registry.ts";
import type { AiCallLog } from "../ai/ai.calls.queries.ts";
import type { ChatTurn } from "../ai/ai.types.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { ANSWER_MAX_TOKENS, ANSWER_SYSTEM, SYNTHESIS_MAX_TOKENS, synthesisSystem } from "./chat.prompts.ts";
import { buildSynthesisInput, finishSynthesis } from "./chat.synthesis.ts";

export type ModelReport = {
  name: string;
  provider: string;
  label: string | null;
  answer: string | null;
  latency_ms: number;
  tokens_in: number | null;
  tokens_out: number | null;
  citations: string[];
  error: string | null;
};

export type Consolidation = {
  final_response: string;
  primary_ai: string;
  available_ais: string[];
  failed_ais: Array<{ name: string; error: string }>;
  labels: Record<string, string>;
  models: ModelReport[];
  synthesis: { model: string; latency_ms: number; tokens_in: number | null; tokens_out: number | null; attempts: Array<{ name: string; error: string }> };
};

/** `logs` collects the AI-call rows; the caller commits them with the outcome. */
type Ctx = { userId: number; conversationId: number; logs: AiCallLog[] };

/**
 * The engine's main job: every available model in parallel with the whole
 * question, each under its own deadline (one slow model never blocks the
 * others), then the synthesis by the first model of the priority chain that
 * answers. Throws NOT_ENOUGH_ANSWERS / SYNTHESIS_FAILED; the caller refunds.
 */
export async function consolidate(deps: Deps, models: readonly ModelDef[], history: ChatTurn[], question: string, ctx: Ctx): Promise<Consolidation> {
  const timeoutMs = deps.ai.timeoutMs;
  const request = { system: ANSWER_SYSTEM, messages: [...history, { role: "user" as const, content: question }], maxTokens: ANSWER_MAX_TOKENS };
  const outcomes = await Promise.all(models.map((m) => callModel(deps, m, request, { purpose: "answer", timeoutMs, userId: ctx.userId, conversationId: ctx.conversationId, deferLog: ctx.logs })));

  const answered = models.flatMap((m, i) => {
    const o = outcomes[i]!;
    return o.ok ? [{ model: m, text: o.text, citations: o.citations }] : [];
  });
  const failed = models.flatMap((m, i) => {
    const o = outcomes[i]!;
    return o.ok ? [] : [{ name: m.name, error: o.reason }];
  });
  if (answered.length < 2) throw new AppError("NOT_ENOUGH_ANSWERS");

  const input = buildSynthesisInput(question, answered.map((a) => ({ model: a.model.name, text: a.text, citations: a.citations })));
  const labelOf = Object.fromEntries(Object.entries(input.labels).map(([label, name]) => [name, label]));
  const synthesisRequest = { system: synthesisSystem(input.nonce), messages: [{ role: "user" as const, content: input.prompt }], maxTokens: SYNTHESIS_MAX_TOKENS };

  // The primary AI is the best-ranked model that just answered; a failure passes the pen down the chain.
  const attempts: Array<{ name: string; error: string }> = [];
  for (const candidate of byPriority(answered.map((a) => a.model))) {
    const s = await callModel(deps, candidate, synthesisRequest, { purpose: "synthesis", timeoutMs, userId: ctx.userId, conversationId: ctx.conversationId, deferLog: ctx.logs });
    if (!s.ok) {
      attempts.push({ name: candidate.name, error: s.reason });
      continue;
    }
    const citations = answered.flatMap((a) => a.citations);
    const missing = failed.map((f) => ({ model: f.name, reason: f.error }));
    return {
      final_response: finishSynthesis(s.text, input.labels, citations, missing),
      primary_ai: candidate.name,
      available_ais: answered.map((a) => a.model.name),
      failed_ais: failed,
      labels: input.labels,
      models: models.map((m, i) => report(m, outcomes[i]!, labelOf[m.name] ?? null)),
      synthesis: { model: candidate.name, latency_ms: s.latencyMs, tokens_in: s.tokensIn, tokens_out: s.tokensOut, attempts },
    };
  }
  throw new AppError("SYNTHESIS_FAILED");
}

function report(m: ModelDef, o: Awaited<ReturnType<typeof callModel>>, label: string | null): ModelReport {
  return {
    name: m.name,
    provider: m.providerLabel,
    label,
    answer: o.ok ? o.text : null,
    latency_ms: o.latencyMs,
    tokens_in: o.ok ? o.tokensIn : null,
    tokens_out: o.ok ? o.tokensOut : null,
    citations: o.ok ? o.citations : [],
    error: o.ok ? null : o.reason,
  };
}
