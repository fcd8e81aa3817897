import type { Deps } from "../deps.ts";
import { type AiCallLog, insertAiCall } from "./ai.calls.queries.ts";
import { type CallFailure, classifyError } from "./ai.errors.ts";
import type { ModelDef } from "./ai.registry.ts";
import type { Completion, CompletionRequest } from "./ai.types.ts";

export type CallPurpose = "answer" | "synthesis" | "clarification" | "probe";

export type CallOutcome =
  | ({ ok: true; latencyMs: number } & Completion)
  | ({ ok: false; latencyMs: number } & CallFailure);

export type CallOptions = {
  purpose: CallPurpose;
  timeoutMs: number;
  userId?: number | null;
  conversationId?: number | null;
  /** Collects the log row instead of writing it, so final processing commits all its rows at once. */
  deferLog?: AiCallLog[];
};

/** Shortest time worth a second attempt: a retry that cannot finish before the deadline is not made. */
const MIN_RETRY_WINDOW_MS = 250;
const RETRY_PAUSE_MS = 200;

/**
 * One model call under one deadline: the signal abandons a hung provider at
 * `timeoutMs`, a 429/5xx/connection failure is retried once inside that same
 * deadline, and the outcome is logged (ai_calls) and fed to the circuit.
 * Never throws: a failed model is a result, not an exception.
 */
export async function callModel(deps: Deps, model: ModelDef, req: CompletionRequest, opts: CallOptions): Promise<CallOutcome> {
  const { ai, clock, db, log } = deps;
  const client = ai.clients[model.provider];
  const started = performance.now();
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  let outcome: CallOutcome;
  if (!client) {
    outcome = { ok: false, latencyMs: 0, kind: "error", status: null, retryable: false, reason: "clé API non configurée" };
  } else {
    const allowEmpty = opts.purpose === "probe";
    outcome = await attempt(() => client.complete(model.modelId, req, deadline), deadline, started, allowEmpty);
    const left = opts.timeoutMs - (performance.now() - started);
    if (!outcome.ok && outcome.retryable && left > MIN_RETRY_WINDOW_MS + RETRY_PAUSE_MS) {
      await Bun.sleep(RETRY_PAUSE_MS);
      if (!deadline.aborted) outcome = await attempt(() => client.complete(model.modelId, req, deadline), deadline, started, allowEmpty);
    }
  }

  const now = clock.now();
  if (outcome.ok) ai.availability.recordSuccess(model.key, now.getTime());
  else ai.availability.recordFailure(model.key, now.getTime(), outcome.reason);
  const row: AiCallLog = {
    userId: opts.userId ?? null,
    conversationId: opts.conversationId ?? null,
    model: model.name,
    provider: model.provider,
    purpose: opts.purpose,
    outcome: outcome.ok ? "ok" : outcome.kind,
    error: outcome.ok ? null : outcome.reason,
    latencyMs: outcome.latencyMs,
    tokensIn: outcome.ok ? outcome.tokensIn : null,
    tokensOut: outcome.ok ? outcome.tokensOut : null,
    createdAt: now,
  };
  try {
    if (opts.deferLog) opts.deferLog.push(row);
    else insertAiCall(db, row);
  } catch (e) {
    // The log is for operators; losing one line must not lose the user's answer.
    log.warn("ai call not logged", { model: model.name, error: e });
  }
  recordCallMetrics(deps, model, opts.purpose, outcome);
  if (!outcome.ok) {
    log.warn("ai call failed", { provider: model.provider, model: model.name, model_id: model.modelId, purpose: opts.purpose, status: outcome.status, reason: outcome.reason, detail: outcome.detail });
  }
  return outcome;
}

function recordCallMetrics({ metrics }: Deps, model: ModelDef, purpose: CallPurpose, outcome: CallOutcome) {
  metrics.aiCalls.inc({ model: model.name, purpose, outcome: outcome.ok ? "ok" : outcome.kind });
  metrics.aiLatency.observe({ model: model.name, purpose }, outcome.latencyMs / 1000);
  if (outcome.ok) {
    metrics.aiTokens.inc({ model: model.name, direction: "in" }, outcome.tokensIn ?? 0);
    metrics.aiTokens.inc({ model: model.name, direction: "out" }, outcome.tokensOut ?? 0);
  }
}

async function attempt(run: () => Promise<Completion>, deadline: AbortSignal, started: number, allowEmpty: boolean): Promise<CallOutcome> {
  try {
    const res = await run();
    const latencyMs = Math.round(performance.now() - started);
    // A probe only asks "does the key and model answer"; a tiny token budget may leave the text empty.
    if (!allowEmpty && !res.text.trim()) return { ok: false, latencyMs, kind: "error", status: null, retryable: false, reason: "réponse vide" };
    return { ok: true, latencyMs, ...res };
  } catch (err) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), ...classifyError(err, deadline) };
  }
}
