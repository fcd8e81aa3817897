import { frChat } from "../i18n/fr-chat.ts";
import { callModel } from "../ai/model-call.ts";
import { byPriority, type ModelDef } from "../ai/registry.ts";
import type { ChatTurn } from "../ai/types.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { type AnswerState, collectAnswers, type RunCtx, timing } from "./answers.ts";
import type { Consolidation, Missing, ModelReport } from "../contracts/answer.ts";
import { degradation, noticeText } from "./degraded.ts";
import { ANSWER_MAX_TOKENS, ANSWER_SYSTEM, documentsRule, SYNTHESIS_MAX_TOKENS } from "./prompts.ts";
import { blindNotices, questionForSynthesis } from "../attachments/run-documents.ts";
import { buildSynthesisInput } from "./synthesis.ts";
import { markdownPlan } from "./synthesis-plan.ts";
import { reviewByPeers } from "./peer-review.ts";
import { rankingForSynthesis } from "./peer-review-prompt.ts";
import { shownSource, webSourcesForRun } from "../web-search/run-web-search.ts";
import { questionWithSourceNames, questionWithSources, sourcesRule } from "../web-search/sources-prompt.ts";

/** A model not asked at all: the breaker holds it, or it has no key. */
export type Skipped = { model: ModelDef; reason: string };

/** Below this, a synthesis attempt cannot finish: the budget is spent. */
const MIN_SYNTHESIS_MS = 500;

/** Thrown when no synthesis could be written; carries what the models said so the page can show it. */
export class NoSynthesis extends AppError {
  constructor(
    code: "NOT_ENOUGH_ANSWERS" | "SYNTHESIS_FAILED" | "COUNCIL_DECLINED",
    readonly answers: Array<{ name: string; answer: string }>,
    detail?: string,
  ) {
    super(code, detail);
  }
}

/**
 * The engine's main job: the answers (soft deadline and quorum, see
 * collectAnswers), then the synthesis by the first model of the priority
 * chain that writes a complete one (checked: not cut, not refused, not
 * empty, and with the shape the plan's `validate` asks for: the prompt's
 * sections by default), every attempt within what remains of the one budget.
 */
export async function consolidate(
  deps: Deps,
  models: readonly ModelDef[],
  skipped: readonly Skipped[],
  history: ChatTurn[],
  question: string,
  context: string,
  ctx: RunCtx,
): Promise<Consolidation> {
  ctx.live.emit("run_started", {
    models: models.map((m) => m.name),
    skipped: skipped.map((s) => ({ model: s.model.name, reason: s.reason })),
    soft_deadline_ms: deps.config.ai.softDeadlineMs,
    quorum: timing(deps, models.length).quorum,
  });
  // The web search comes first, bounded by WEB_SEARCH_TIMEOUT_MS: the answer's budget and soft deadline count from after it.
  const web = ctx.webQuery ? await webSourcesForRun(deps, ctx.webQuery, ctx) : null;
  const sources = web?.sources ?? [];
  const t = timing(deps, models.length);
  const docs = ctx.documents ?? null;
  const request = {
    system: ANSWER_SYSTEM,
    messages: [...history, { role: "user" as const, content: questionWithSources(question, docs, sources, web?.nonce ?? "") }],
    maxTokens: ANSWER_MAX_TOKENS,
  };
  const states = await collectAnswers(deps, models, request, t, ctx);
  const answered = states.flatMap((s) => (s.outcome?.ok ? [{ model: s.model, text: s.outcome.text, citations: s.outcome.citations }] : []));
  const individual = answered.map((a) => ({ name: a.model.name, answer: a.text }));
  if (answered.length < 2) throw tooFewAnswers(states, answered.length, individual);

  const input = buildSynthesisInput(
    questionWithSourceNames(questionForSynthesis(question, docs), sources),
    answered.map((a) => ({ model: a.model.name, text: a.text, citations: a.citations })),
    context,
  );
  const labelOf = Object.fromEntries(Object.entries(input.labels).map(([label, name]) => [name, label]));
  const plan = ctx.plan ?? markdownPlan();
  const review = ctx.peerReview
    ? await reviewByPeers(
        deps,
        answered.map((a) => ({ model: a.model, label: labelOf[a.model.name]!, text: a.text })),
        question,
        input.nonce,
        t,
        ctx,
      )
    : null;
  const ranked = review && review.ranking.length > 0 ? `\n\n${rankingForSynthesis(review.ranking)}` : "";
  const synthesisRequest = {
    system: plan.system(input.nonce) + documentsRule(docs?.names ?? []) + sourcesRule(sources),
    messages: [{ role: "user" as const, content: input.prompt + ranked }],
    maxTokens: SYNTHESIS_MAX_TOKENS,
  };
  const intended = byPriority(models)[0]!.name;

  const missing = missingOf(states, skipped);
  const attempts: Array<{ name: string; error: string }> = [];
  for (const candidate of byPriority(answered.map((a) => a.model))) {
    const remaining = t.budgetEnd - performance.now();
    if (remaining < MIN_SYNTHESIS_MS || ctx.live.abort.signal.aborted) break;
    // Known before the synthesiser writes: the answers are in and the synthesiser is chosen.
    const degraded = degradation({
      answered: answered.length,
      asked: models.length + skipped.filter((s) => s.reason !== NO_KEY).length,
      missing: missing.filter((m) => m.reason !== NO_KEY),
      primary: candidate.name,
      intended,
    });
    const notice = degraded ? noticeText(degraded, candidate.name) : null;
    // With the labels, a follower of the live run (GET …/events) can show the text as it will be stored.
    ctx.live.emit("synthesis_started", { model: candidate.name, notice, labels: input.labels });
    const s = await callModel(deps, candidate, synthesisRequest, {
      purpose: "synthesis",
      timeoutMs: remaining,
      stallMs: t.stallMs,
      signal: ctx.live.abort.signal,
      onText: (text) => ctx.live.synthesisText.write(text),
      userId: ctx.userId,
      conversationId: ctx.conversationId,
      ledger: ctx.logs,
      unwritten: ctx.unwritten,
      confirmRefusal: ctx.confirmRefusal,
      // The shape the plan promised (the sections, or a JSON that follows the schema): checked with the output checks, so a text that misses it fails like a cut one.
      validate: plan.validate,
    });
    if (!s.ok) {
      attempts.push({ name: candidate.name, error: s.reason });
      ctx.live.emit("synthesis_failed", { model: candidate.name, reason: s.reason });
      continue;
    }
    const read = [...(docs?.notices ?? []), ...blindNotices(models, docs)];
    // Above the answer: a failed web search (kept in web_search.notice), then what was read of the documents.
    const told = [...(web?.notice ? [web.notice] : []), ...read];
    const finished = plan.finish(
      s.text,
      input.labels,
      answered.flatMap((a) => a.citations),
      notice,
      sources,
    );
    return {
      // What was read of the documents, above the answer; a JSON answer (a /v1 response_format) stays pure JSON.
      final_response: told.length > 0 && !plan.json ? [told.map((t) => `> ${t}`).join("\n>\n"), finished].join("\n\n") : finished,
      ...(read.length > 0 ? { document_notices: read } : {}),
      primary_ai: candidate.name,
      available_ais: answered.map((a) => a.model.name),
      failed_ais: missing.map((m) => ({ name: m.name, error: m.reason })),
      labels: input.labels,
      models: [...states.map((st) => report(st, labelOf[st.model.name] ?? null)), ...skipped.map(skippedReport)],
      synthesis: { model: candidate.name, latency_ms: s.latencyMs, tokens_in: s.tokensIn, tokens_out: s.tokensOut, cost_eur: s.costEur, attempts },
      degraded,
      notice,
      ...(review ? { peer_review: review } : {}),
      ...(web ? { web_search: { query: web.query, sources: sources.map(shownSource), notice: web.notice } } : {}),
      cost_eur: ctx.logs.reduce((sum, row) => sum + (row.costEur ?? 0), 0),
    };
  }
  throw new NoSynthesis("SYNTHESIS_FAILED", individual);
}

export const NO_KEY = frChat.reason.skippedNoKey;

/**
 * Fewer than 2 answers. When the members that declined are why (with their answers there would have been enough),
 * the user is told they declined, not that too few « answered » and a retry might do (COUNCIL_DECLINED).
 */
function tooFewAnswers(states: readonly AnswerState[], answered: number, individual: Array<{ name: string; answer: string }>): NoSynthesis {
  const declined = states.filter((s) => !s.leftOut && s.outcome && !s.outcome.ok && s.outcome.kind === "refusal").map((s) => s.model.name);
  if (declined.length === 0 || answered + declined.length < 2) return new NoSynthesis("NOT_ENOUGH_ANSWERS", individual);
  return new NoSynthesis("COUNCIL_DECLINED", individual, frChat.declined(declined, declined.length === states.length));
}

function missingOf(states: readonly AnswerState[], skipped: readonly Skipped[]): Missing[] {
  const failed = states.flatMap((s) =>
    s.outcome && !s.outcome.ok ? [{ name: s.model.name, reason: s.leftOut ? frChat.reason.leftOut : s.outcome.reason }] : [],
  );
  return [...failed, ...skipped.map((s) => ({ name: s.model.name, reason: s.reason }))];
}

function report(s: AnswerState, label: string | null): ModelReport {
  const o = s.outcome!;
  const usage = o as { tokensIn?: number | null; tokensOut?: number | null };
  return {
    name: s.model.name,
    provider: s.model.providerLabel,
    label,
    status: o.ok ? "answered" : s.leftOut ? "left_out" : "failed",
    answer: o.ok ? o.text : null,
    latency_ms: o.latencyMs,
    tokens_in: usage.tokensIn ?? null,
    tokens_out: usage.tokensOut ?? null,
    cost_eur: o.costEur,
    citations: o.ok ? o.citations : [],
    error: o.ok ? null : s.leftOut ? frChat.reason.leftOut : o.reason,
    ...(o.ok && o.partialRefusal ? { partial_refusal: true as const } : {}),
  };
}

function skippedReport(s: Skipped): ModelReport {
  return {
    name: s.model.name,
    provider: s.model.providerLabel,
    label: null,
    status: "skipped",
    answer: null,
    latency_ms: 0,
    tokens_in: null,
    tokens_out: null,
    cost_eur: 0,
    citations: [],
    error: s.reason,
  };
}
