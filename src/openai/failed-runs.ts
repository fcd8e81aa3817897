import type { RunEvent } from "../chat/live-run.ts";
import type { RunRow } from "../chat/runs.queries.ts";
import type { AppEnv } from "../deps.ts";
import type { RequestKey } from "./api-requests.queries.ts";
import { frChat } from "../i18n/fr-chat.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";

/**
 * Why a synthesiser's text was refused when the same request would get it
 * refused again: the models wrote, and what they wrote cannot follow the
 * request (a schema no answer satisfies, a refusal). An outage, a timeout, a
 * cut text or a Markdown synthesis missing its sections may pass next time.
 */
const LASTING_REASONS: ReadonlySet<string> = new Set([frChat.reason.refusal, frChat.reason.notJson, frChat.reason.notJsonObject]);
const SCHEMA_MISMATCH = frChat.reason.schemaMismatch("").replace(/ \(\)$/, "");

function lastingReason(reason: unknown): boolean {
  return typeof reason === "string" && (LASTING_REASONS.has(reason) || reason.startsWith(SCHEMA_MISMATCH));
}

/**
 * Whether a failed run failed for a reason the same request meets again: the
 * members declined the question (COUNCIL_DECLINED, consolidate.ts: their
 * refusals are why too few answered), or every synthesiser tried was refused
 * for its content.
 */
export function lastingFailure(run: Pick<RunRow, "status" | "error" | "events">): boolean {
  if (run.status === "failed" && run.error === "COUNCIL_DECLINED") return true;
  if (run.status !== "failed" || run.error !== "SYNTHESIS_FAILED") return false;
  const refused = ((run.events ?? []) as RunEvent[]).filter((e) => e.type === "synthesis_failed");
  return refused.length > 0 && refused.every((e) => lastingReason(e.data.reason));
}

/**
 * The error told for a lasting failure: a 400, which no client retries
 * (a 503 is retried by every one, each retry a whole council), with the
 * models' answers the failed run kept.
 */
export function impossibleAnswer(extra?: Record<string, unknown>): AppError {
  return new AppError("API_ANSWER_IMPOSSIBLE", undefined, {}, extra);
}

/**
 * Failed runs per user before /v1 stops starting new ones: refunded runs
 * still cost the operator every provider call, so a client looping on a
 * request that fails (each time a little different, so no stored failure
 * answers it) is stopped after a few.
 */
export const FAILED_RUNS = { windowMs: 10 * MINUTE, limit: 3 };

type Store = AppEnv["Variables"]["rateLimits"];
const failedKey = (userId: number) => `v1.failed:${userId}`;

/** Counts one failed run the user's request started. */
export async function countFailedRun(store: Store, userId: number): Promise<void> {
  await store.hit(failedKey(userId), FAILED_RUNS.windowMs);
}

/** 429 (API_FAILING, with Retry-After) once the user's failed runs reached the limit in the window. */
export async function assertNotFailing(store: Store, userId: number): Promise<void> {
  const counter = await store.peek(failedKey(userId));
  if (!counter || counter.count < FAILED_RUNS.limit) return;
  const seconds = Math.max(1, Math.ceil((counter.resetAt - store.clock.now().getTime()) / 1000));
  throw new AppError("API_FAILING", undefined, { "Retry-After": String(seconds) });
}

/** How long the same request is answered from a lasting failure (the window in which a retry joins its run, joined-runs.ts). */
const FAILURE_MEMORY_MS = 10 * MINUTE;
const impossibleKey = (k: RequestKey) => `v1.impossible:${k.apiKeyId}:${k.requestKey}:${k.bodyHash}`;

/**
 * A lasting failure remembered apart from the conversation, which is
 * deleted (a refused request leaves no question in the history): the same
 * request (same key, same body) is answered from it for 10 minutes.
 */
export async function rememberImpossible(store: Store, key: RequestKey): Promise<void> {
  await store.hit(impossibleKey(key), FAILURE_MEMORY_MS);
}

export async function isRememberedImpossible(store: Store, key: RequestKey): Promise<boolean> {
  return (await store.peek(impossibleKey(key))) !== undefined;
}
