import { frChat } from "../i18n/fr-chat.ts";
import type { Deps } from "../deps.ts";
import { type AiCallLog, insertAiCall } from "./ai-calls.queries.ts";
import { type AbortCause, type CallFailure, classifyError, failure } from "./provider-errors.ts";
import { callCost } from "./prices.ts";
import type { ModelDef } from "./registry.ts";
import type { Completion, CompletionRequest, OnText } from "./types.ts";
import { type ConfirmRefusal, checkOutput, type OutputValidator } from "./output-checks.ts";

export type CallPurpose = "answer" | "synthesis" | "clarification" | "probe" | "peer_review" | "refusal_check";

export type CallOutcome = ({ ok: true; latencyMs: number; costEur: number } & Completion) | ({ ok: false; latencyMs: number; costEur: number } & CallFailure);

export type CallOptions = {
  purpose: CallPurpose;
  /** The call's deadline, from now; the engine passes what remains of the answer's budget. */
  timeoutMs: number;
  /** Abandon a stream that sends nothing for this long (first token, or between tokens). */
  stallMs?: number;
  /** Cancels the call from outside (a model left out at the soft deadline, a cancelled run). */
  signal?: AbortSignal;
  onText?: OnText;
  userId?: number | null;
  conversationId?: number | null;
  /** Every row of the run (its cost); each row is also written as its call ends, so a run cut short leaves its costs behind. */
  ledger?: AiCallLog[];
  /** The rows whose write failed (a database busy or down): the run's final write tries them again. */
  unwritten?: AiCallLog[];
  /** The shape the text was promised (a synthesis's sections): a text without it is not a success. */
  validate?: OutputValidator;
  /** Asked when the refusal pre-filter finds the text ambiguous (src/ai/refusal-confirm.ts); without it, such a text is kept. */
  confirmRefusal?: ConfirmRefusal;
};

/** Shortest time worth a second attempt, beyond the wait the provider asked for. */
const MIN_RETRY_WINDOW_MS = 250;
const RETRY_PAUSE_MS = 200;

/**
 * One model call under one deadline: the call streams, a stall (no text for
 * `stallMs`) or the deadline abandons it, a 429/5xx/cut connection is retried
 * once when the wait the provider asked for (`retry-after`) still fits, and
 * every attempt is logged (ai_calls: status, tokens, cost). The output is
 * checked (empty, refused, cut at the token limit) before it counts as an
 * answer. Only answers and probes feed the availability breaker. Never
 * throws: a failed model is a result, not an exception.
 */
export async function callModel(deps: Deps, model: ModelDef, req: CompletionRequest, opts: CallOptions): Promise<CallOutcome> {
  const client = model.client;
  const started = performance.now();
  const deadlineAt = started + opts.timeoutMs;
  if (!client) return await finish(deps, model, opts, { ok: false, latencyMs: 0, costEur: 0, ...failure("error", frChat.reason.noKey) }, true);
  let outcome = await counted(deps, model, req, opts, deadlineAt);
  let streamed = outcome.streamed;
  const wait = outcome.ok ? 0 : (outcome.retryAfterMs ?? RETRY_PAUSE_MS);
  // A retry after text was shown would show it twice; a retry that cannot finish in time is not made.
  if (!outcome.ok && outcome.retryable && !streamed && deadlineAt - performance.now() > wait + MIN_RETRY_WINDOW_MS && !opts.signal?.aborted) {
    await finish(deps, model, opts, outcome, false);
    deps.log.info("ai call retried", { model: model.name, purpose: opts.purpose, reason: outcome.reason, wait_ms: Math.round(wait) });
    await Bun.sleep(wait);
    outcome = await counted(deps, model, req, opts, deadlineAt);
    streamed = outcome.streamed;
  } else if (!outcome.ok && outcome.retryable && !streamed) {
    deps.log.info("ai call not retried: the wait does not fit the deadline", { model: model.name, purpose: opts.purpose, wait_ms: Math.round(wait) });
  }
  return await finish(deps, model, opts, outcome, true);
}

type Attempt = CallOutcome & { streamed: boolean; queued?: boolean };

/**
 * An attempt counted among the process's calls in flight (upstream-calls.ts). One that found Bun's HTTP client
 * full and timed out without a byte of text waited in this server's queue: `queued`, kept from the breaker.
 */
async function counted(deps: Deps, model: ModelDef, req: CompletionRequest, opts: CallOptions, deadlineAt: number): Promise<Attempt> {
  const call = deps.ai.upstream.begin();
  try {
    const outcome = await attempt(model, req, opts, deadlineAt);
    return call.queued && !outcome.ok && outcome.kind === "timeout" && !outcome.streamed ? { ...outcome, queued: true } : outcome;
  } finally {
    call.end();
  }
}

async function attempt(model: ModelDef, req: CompletionRequest, opts: CallOptions, deadlineAt: number): Promise<Attempt> {
  const started = performance.now();
  const ctl = new AbortController();
  let cause: AbortCause | null = null;
  const abort = (why: AbortCause) => {
    cause ??= why;
    ctl.abort();
  };
  const deadline = setTimeout(() => abort("deadline"), Math.max(0, deadlineAt - started));
  let stall: ReturnType<typeof setTimeout> | undefined;
  const armStall = () => {
    if (!opts.stallMs) return;
    clearTimeout(stall);
    stall = setTimeout(() => abort("stall"), opts.stallMs);
  };
  armStall();
  const onCancel = () => abort("cancel");
  if (opts.signal?.aborted) abort("cancel");
  opts.signal?.addEventListener("abort", onCancel);
  let streamed = false;
  try {
    const res = await model.client!.stream(model.modelId, req, ctl.signal, (delta) => {
      armStall();
      streamed = true;
      opts.onText?.(delta);
    });
    const latencyMs = Math.round(performance.now() - started);
    const costEur = callCost(model.price, res.tokensIn, res.tokensOut);
    // The SDKs end an aborted stream without an error: our abort decides. The tokens it reported go to the ledger with their cost.
    if (cause !== null)
      return { ok: false, latencyMs, costEur, ...classifyError(null, cause), streamed, tokensIn: res.tokensIn, tokensOut: res.tokensOut } as Attempt;
    const confirm = opts.confirmRefusal && { ask: opts.confirmRefusal, timeoutMs: deadlineAt - performance.now(), signal: opts.signal };
    const checked = opts.purpose === "probe" ? null : await checkOutput(res, opts.purpose, opts.validate, confirm);
    if (checked?.failure) return { ok: false, latencyMs, costEur, ...checked.failure, streamed, tokensIn: res.tokensIn, tokensOut: res.tokensOut } as Attempt;
    return { ok: true, latencyMs, costEur, ...res, ...(checked?.partialRefusal ? { partialRefusal: true } : {}), streamed };
  } catch (err) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), costEur: 0, ...classifyError(err, cause), streamed };
  } finally {
    clearTimeout(deadline);
    clearTimeout(stall);
    opts.signal?.removeEventListener("abort", onCancel);
  }
}

/** Logs one attempt (and, for the last one, feeds the breaker); returns the outcome without the bookkeeping. */
async function finish(deps: Deps, model: ModelDef, opts: CallOptions, outcome: CallOutcome & { streamed?: boolean }, last: boolean): Promise<CallOutcome> {
  const { ai, clock, log } = deps;
  const now = clock.now();
  const { streamed: _streamed, queued, ...result } = outcome as Attempt;
  if (last && !queued && (opts.purpose === "answer" || opts.purpose === "probe")) {
    if (result.ok) ai.availability.recordSuccess(model.key, now.getTime());
    else if (result.kind !== "cancelled" && result.kind !== "refusal") {
      ai.availability.recordFailure(model.key, now.getTime(), {
        status: result.status,
        reason: result.reason,
        retryAfterMs: result.retryAfterMs,
        source: opts.purpose,
      });
    }
  }
  const usage = result as { tokensIn?: number | null; tokensOut?: number | null };
  const row: AiCallLog = {
    userId: opts.userId ?? null,
    conversationId: opts.conversationId ?? null,
    model: model.name,
    provider: model.provider,
    purpose: opts.purpose,
    outcome: result.ok ? "ok" : result.kind,
    httpStatus: result.ok ? 200 : result.status,
    error: result.ok ? null : result.reason,
    latencyMs: result.latencyMs,
    tokensIn: usage.tokensIn ?? null,
    tokensOut: usage.tokensOut ?? null,
    costEur: result.costEur,
    createdAt: now,
  };
  opts.ledger?.push(row);
  try {
    // Written when the call ends, not with the run's outcome: a run killed after its answers still leaves their cost.
    await ai.writes.run(async (tx) => await insertAiCall(tx, row));
  } catch (e) {
    // The log is for operators; losing one line must not lose the user's answer.
    if (opts.unwritten) opts.unwritten.push(row);
    log.warn("ai call not logged", { model: model.name, error: e, retried_with_the_outcome: opts.unwritten !== undefined });
  }
  // Metrics count calls (the last attempt's outcome); ai_calls keeps every attempt.
  if (last) recordCallMetrics(deps, model, opts.purpose, result);
  if (!result.ok && result.kind !== "cancelled") {
    log.warn("ai call failed", {
      provider: model.provider,
      model: model.name,
      model_id: model.modelId,
      purpose: opts.purpose,
      status: result.status,
      reason: result.reason,
      detail: result.detail,
    });
  }
  return result;
}

function recordCallMetrics({ metrics }: Deps, model: ModelDef, purpose: CallPurpose, outcome: CallOutcome) {
  metrics.aiCalls.inc({ model: model.name, purpose, outcome: outcome.ok ? "ok" : outcome.kind });
  metrics.aiLatency.observe({ model: model.name, purpose }, outcome.latencyMs / 1000);
  const usage = outcome as { tokensIn?: number | null; tokensOut?: number | null };
  metrics.aiTokens.inc({ model: model.name, direction: "in" }, usage.tokensIn ?? 0);
  metrics.aiTokens.inc({ model: model.name, direction: "out" }, usage.tokensOut ?? 0);
}
