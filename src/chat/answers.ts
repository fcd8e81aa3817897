import type { SynthesisPlan } from "./synthesis-plan.ts";
import { frChat } from "../i18n/fr-chat.ts";
import { type CallOutcome, callModel } from "../ai/model-call.ts";
import type { AiCallLog } from "../ai/ai-calls.queries.ts";
import type { ConfirmRefusal } from "../ai/output-checks.ts";
import type { ModelDef } from "../ai/registry.ts";
import type { CompletionRequest } from "../ai/types.ts";
import type { Deps } from "../deps.ts";
import type { LiveRun } from "./live-run.ts";
import type { RunDocuments } from "../attachments/run-documents.ts";
import { capMemberAnswer } from "./answer-length.ts";

export type AnswerState = { model: ModelDef; outcome: CallOutcome | null; leftOut: boolean };

export type RunCtx = {
  userId: number;
  conversationId: number;
  /** Every AI call of the run (its cost). */
  logs: AiCallLog[];
  /** The calls whose row could not be written when the call ended (written with the outcome). */
  unwritten: AiCallLog[];
  live: LiveRun;
  /** How the synthesis is asked, checked and finished (synthesis-plan.ts); the Markdown answer when absent. */
  plan?: SynthesisPlan;
  /** The council's peer review (« Délibération »): the members rank each other's answers before the synthesis. */
  peerReview?: boolean;
  /** The files of the turn (issue 33): their text is already in the question; their pictures go to the models that see. */
  documents?: RunDocuments | null;
  /** Confirms a text the refusal pre-filter finds ambiguous (src/ai/refusal-confirm.ts); absent, such a text is kept. */
  confirmRefusal?: ConfirmRefusal;
  /** Search the web for this first and give every member the same numbered sources (issue 45, src/web-search/); null: no search. */
  webQuery?: string | null;
};

export type Timing = {
  /** performance.now() at the start of the run. */
  startedAt: number;
  /** The answer's budget ends here (AI_BUDGET_MS): answers, synthesis and fallbacks share it. */
  budgetEnd: number;
  /** After this, the synthesis starts once `quorum` answers are in (AI_SOFT_DEADLINE_MS). */
  softAt: number;
  quorum: number;
  /** A stream silent for this long is abandoned (first token or between tokens). */
  stallMs: number;
};

export function timing(deps: Deps, models: number): Timing {
  const { timeoutMs, softDeadlineMs, budgetMs, quorum } = deps.config.ai;
  const startedAt = performance.now();
  return {
    startedAt,
    budgetEnd: startedAt + budgetMs,
    softAt: startedAt + softDeadlineMs,
    quorum: Math.min(Math.max(2, quorum), models),
    stallMs: Math.min(30_000, Math.max(1_000, Math.round(timeoutMs / 3))),
  };
}

/**
 * Every model in parallel; never waits for the slowest: once the soft
 * deadline has passed and the quorum is in, the models still writing are
 * cancelled and named as left out. Each outcome is an event as it lands.
 */
export async function collectAnswers(deps: Deps, models: readonly ModelDef[], request: CompletionRequest, t: Timing, ctx: RunCtx): Promise<AnswerState[]> {
  const states: AnswerState[] = models.map((model) => ({ model, outcome: null, leftOut: false }));
  const cancels = models.map(() => new AbortController());
  let wake = () => {};
  // A timer may fire a fraction of a millisecond before the deadline it was set for: its firing is the deadline.
  let softPassed = false;
  const answered = () => states.filter((s) => s.outcome?.ok).length;
  const settled = () => states.every((s) => s.outcome !== null);
  const enough = () => settled() || ((softPassed || performance.now() >= t.softAt) && answered() >= t.quorum);

  const calls = states.map(async (state, i) => {
    ctx.live.emit("model_started", { model: state.model.name });
    // Pictures only to a model that reads them; the others have the question and the documents' text.
    const asked = state.model.vision && ctx.documents?.images.length ? { ...request, images: ctx.documents.images } : request;
    const outcome = await callModel(deps, state.model, asked, {
      purpose: "answer",
      // The member's own timeout (AI_TIMEOUT_MS unless the council sets one), within the answer's budget.
      timeoutMs: Math.max(0, Math.min(t.budgetEnd, t.startedAt + state.model.timeoutMs) - performance.now()),
      stallMs: t.stallMs,
      signal: AbortSignal.any([cancels[i]!.signal, ctx.live.abort.signal]),
      // Each model's answer is shown as it is written (model-texts.ts gathers the deltas).
      onText: (delta) => ctx.live.texts.write(state.model.name, delta),
      userId: ctx.userId,
      conversationId: ctx.conversationId,
      ledger: ctx.logs,
      unwritten: ctx.unwritten,
      confirmRefusal: ctx.confirmRefusal,
    });
    // The answer kept (stored, synthesised, in later contexts) is within the tokens asked, whatever the provider sent.
    state.outcome = outcome.ok && request.maxTokens ? { ...outcome, text: capMemberAnswer(outcome.text, request.maxTokens) } : outcome;
    ctx.live.texts.close(state.model.name);
    if (!state.leftOut) {
      if (outcome.ok)
        ctx.live.emit("model_answered", {
          model: state.model.name,
          latency_ms: outcome.latencyMs,
          tokens_in: outcome.tokensIn,
          tokens_out: outcome.tokensOut,
          cost_eur: outcome.costEur,
        });
      else ctx.live.emit("model_failed", { model: state.model.name, reason: outcome.reason, latency_ms: outcome.latencyMs });
    }
    wake();
  });

  const soft = setTimeout(
    () => {
      softPassed = true;
      wake();
    },
    Math.max(0, t.softAt - performance.now()),
  );
  while (!enough() && !ctx.live.abort.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
  clearTimeout(soft);

  const seconds = Math.round((performance.now() - t.startedAt) / 1000);
  states.forEach((s, i) => {
    if (s.outcome !== null) return;
    s.leftOut = true;
    ctx.live.texts.close(s.model.name);
    ctx.live.emit("model_left_out", { model: s.model.name, reason: leftOutReason(seconds) });
    cancels[i]!.abort();
  });
  // The cancelled calls end at once; waiting for them keeps their log rows with the run's.
  await Promise.all(calls);
  return states;
}

export function leftOutReason(seconds: number): string {
  return frChat.reason.leftOutAfter(seconds);
}
