import { callModel } from "../ai/model-call.ts";
import type { ModelDef } from "../ai/registry.ts";
import type { PeerRanker, PeerReview } from "../contracts/peer-review.ts";
import type { Deps } from "../deps.ts";
import { frPeerReview } from "../i18n/fr-peer-review.ts";
import type { RunCtx, Timing } from "./answers.ts";
import { aggregateRanking, parseRanking } from "./peer-ranking.ts";
import { rankingPrompt, rankingSystem } from "./peer-review-prompt.ts";

/** A ranking is a short evaluation and one line: far less than an answer. */
const RANKING_MAX_TOKENS = 800;
/** Below this, a ranking call cannot finish: the members are named, none is asked. */
const MIN_REVIEW_MS = 1_000;
/** The least the last members get once half have ranked. */
const MIN_GRACE_MS = 1_000;

export type ReviewedAnswer = { model: ModelDef; label: string; text: string };

/**
 * The peer review (« Délibération »), between the answers and the synthesis:
 * each member that answered ranks the others' answers, in parallel, under the
 * synthesis's labels. It takes at most half of what remains of the run's
 * budget (and never more than a model's timeout), so the synthesis keeps the
 * rest; and, like the answers' soft deadline, once half the members (at least
 * two) have ranked, the others get as long again as that took (at least
 * MIN_GRACE_MS), then are cancelled: a slow or silent member delays the answer
 * by a bounded share, never by a whole stall. Every call is costed and logged
 * like the others (purpose `peer_review`). A member that fails (error,
 * timeout, unreadable ranking, not waited for) is named and the review goes
 * on without it: it never blocks the answer. With fewer than three answers
 * there is nothing to compare (each would rank one), so no review: null.
 */
export async function reviewByPeers(
  deps: Deps,
  answers: readonly ReviewedAnswer[],
  question: string,
  nonce: string,
  t: Timing,
  ctx: RunCtx,
): Promise<PeerReview | null> {
  if (answers.length < 3) return null;
  const started = performance.now();
  const windowMs = Math.min(deps.config.ai.timeoutMs, (t.budgetEnd - started) / 2);
  ctx.live.emit("peer_review_started", { models: answers.map((a) => a.model.name) });
  const rankers =
    windowMs < MIN_REVIEW_MS || ctx.live.abort.signal.aborted
      ? answers.map((a) => notRanked(a.model, frPeerReview.noTime))
      : await rankAll(deps, answers, question, nonce, windowMs, t, ctx);
  const labels = Object.fromEntries(answers.map((a) => [a.label, a.model.name]));
  const review: PeerReview = {
    ranking: aggregateRanking(
      rankers.flatMap((r) => (r.ranked ? [r.order] : [])),
      labels,
    ),
    rankers,
    failures: rankers.filter((r) => !r.ranked).map((r) => frPeerReview.notRanked(r.name)),
    cost_eur: rankers.reduce((sum, r) => sum + r.cost_eur, 0),
    latency_ms: Math.round(performance.now() - started),
  };
  ctx.live.emit("peer_review", review);
  return review;
}

/** Every member's ranking, in parallel; the stragglers cancelled once half have ranked and waited for as long again. */
async function rankAll(
  deps: Deps,
  answers: readonly ReviewedAnswer[],
  question: string,
  nonce: string,
  windowMs: number,
  t: Timing,
  ctx: RunCtx,
): Promise<PeerRanker[]> {
  const started = performance.now();
  const half = Math.max(2, Math.ceil(answers.length / 2));
  const cancels = answers.map(() => new AbortController());
  const results: Array<PeerRanker | null> = answers.map(() => null);
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const calls = answers.map(async (a, i) => {
    const signal = AbortSignal.any([cancels[i]!.signal, ctx.live.abort.signal]);
    results[i] = await rank(deps, a, answers, question, nonce, { windowMs, signal }, t, ctx);
    if (graceTimer === undefined && results.filter((r) => r?.ranked).length >= half) {
      const grace = Math.max(MIN_GRACE_MS, performance.now() - started);
      graceTimer = setTimeout(() => {
        for (const [j, c] of cancels.entries()) if (results[j] === null) c.abort();
      }, grace);
    }
  });
  await Promise.all(calls);
  clearTimeout(graceTimer);
  // A call cancelled by the grace (not by the run) was not waited for: said so rather than « écarté ».
  return results.map((r, i) => (cancels[i]!.signal.aborted && !ctx.live.abort.signal.aborted && !r!.ranked ? { ...r!, error: frPeerReview.notWaited } : r!));
}

/** One member's ranking of the others' answers; never throws. */
async function rank(
  deps: Deps,
  own: ReviewedAnswer,
  answers: readonly ReviewedAnswer[],
  question: string,
  nonce: string,
  call: { windowMs: number; signal: AbortSignal },
  t: Timing,
  ctx: RunCtx,
): Promise<PeerRanker> {
  // In label order (« Réponse A », « Réponse B »...), as the synthesiser sees them: the order says nothing of who wrote what.
  const others = answers.filter((a) => a !== own).sort((a, b) => a.label.localeCompare(b.label));
  const shown = others.map((a) => a.label);
  const outcome = await callModel(
    deps,
    own.model,
    { system: rankingSystem(nonce), messages: [{ role: "user", content: rankingPrompt(nonce, question, others) }], maxTokens: RANKING_MAX_TOKENS },
    {
      purpose: "peer_review",
      timeoutMs: call.windowMs,
      stallMs: t.stallMs,
      signal: call.signal,
      userId: ctx.userId,
      conversationId: ctx.conversationId,
      ledger: ctx.logs,
      unwritten: ctx.unwritten,
      // An unreadable ranking is a failed call (logged with its reason), like a synthesis without its sections.
      validate: (text) => (parseRanking(text, shown) ? null : frPeerReview.unreadable),
    },
  );
  const order = outcome.ok ? parseRanking(outcome.text, shown) : null;
  return {
    name: own.model.name,
    ranked: order !== null,
    order: order ?? [],
    error: outcome.ok ? null : outcome.reason,
    latency_ms: outcome.latencyMs,
    cost_eur: outcome.costEur,
  };
}

function notRanked(model: ModelDef, error: string): PeerRanker {
  return { name: model.name, ranked: false, order: [], error, latency_ms: 0, cost_eur: 0 };
}
