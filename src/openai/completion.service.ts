import { moderate } from "../ai/moderation.ts";
import type { ChatTurn } from "../ai/types.ts";
import { transaction } from "../db/transaction.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { assertCanQuery, assertOperational } from "../chat/access.ts";
import type { Consolidation } from "../contracts/answer.ts";
import { type ProcessResult, resultOf, startRun } from "../chat/final-processing.ts";
import { stopHere } from "../chat/run-stop.ts";
import { appendMessages, deleteOwnedConversation, insertConversation, type NewMessage } from "../chat/chat.queries.ts";
import { findRunById, type RunRow } from "../chat/runs.queries.ts";
import { titleFrom } from "../chat/chat.view.ts";
import { AppError } from "../lib/errors.ts";
import { forgetUnsentFiles, markApiRequestRead } from "./api-requests.queries.ts";
import type { AnswerOptions } from "./messages.ts";
import { jsonPlan } from "../chat/json-answer.ts";
import { lengthLimit } from "../chat/answer-length.ts";
import { markdownPlan, type SynthesisPlan } from "../chat/synthesis-plan.ts";
import { type AskedKey, claimRequestKey, type Earlier, findJoinable, JoinInstead } from "./joined-runs.ts";
import { countFailedRun, impossibleAnswer, isRememberedImpossible, lastingFailure, rememberImpossible } from "./failed-runs.ts";
import type { RateLimitStore } from "../lib/rate-limit.ts";
import { type ApiFile, storeApiFiles } from "./api-files.ts";
import { attachToMessage } from "../attachments/attachments.queries.ts";
import { type UrlCitation, urlCitations } from "./url-citations.ts";

export type CompletionInput = {
  /** The last user message of the request. */
  question: string;
  /** The earlier messages, already alternating user/assistant and trimmed (messages.ts). */
  context: ChatTurn[];
  /** Pictures and files of the last message (api-files.ts): stored and read like the page's uploads, then sent with the question. */
  files?: ApiFile[];
  /** JSON following a schema, a length: how the synthesis is asked and checked (planOf). */
  options?: AnswerOptions;
  /** What identifies the question, so that a client's retry joins its run (joined-runs.ts). */
  key: AskedKey;
  /** Checks made whenever a run would start, a failed one's rerun included (the per-user limits): a retry joining its run passes. */
  admit?: () => Promise<void>;
  /** The rate-limit store: failed runs are counted there, lasting failures remembered (failed-runs.ts). */
  rateLimits: RateLimitStore;
  /**
   * A streamed request: called once its run is started or joined (every check
   * passed, the request charged), so the stream can open; a failure after it
   * is the stream's error event, one before it the real HTTP status.
   */
  onRun?: () => void;
  /** The client went away: nothing is started after it fires, and a run already started goes on without it. */
  signal?: AbortSignal;
};

export type CompletionResult = {
  conversationId: number;
  /** The request's row (api_requests): marked read once the answer is delivered. */
  requestId: number;
  text: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** Models whose answer went into the synthesis. */
  models: string[];
  missing: Array<{ model: string; reason: string }>;
  synthesiser: string;
  /** The URLs the models cited, and the notice of a degraded answer: beside the answer, since a JSON answer cannot carry them. */
  sources: string[];
  notice: string | null;
  /** The web search's sources, where the answer's text lists them (OpenAI's url_citation annotations). */
  citations: UrlCitation[];
};

/**
 * The one seam between /v1 and the engine: a whole question through the
 * same rules as the page (quota 402, maintenance 503, moderation 400 (the
 * refusal is not stored), one request charged once and refunded on
 * failure), stored as a conversation marked "api". The clarifying pre-pass and the "too vague"
 * reply are skipped: an API client cannot answer back.
 *
 * A request identical to one still running, or finished lately and not
 * delivered (joined-runs.ts), joins that run: same answer, no second charge,
 * and none of the checks of a new question (its quota was spent already).
 *
 * The result is the stored answer, for a stream too: it sends it once it is
 * stored (forward.ts, issues 43 and 47), never the synthesis being written.
 */
export async function complete(deps: Deps, user: UserRow, input: CompletionInput): Promise<CompletionResult> {
  const { clock } = deps;
  if (await isRememberedImpossible(input.rateLimits, input.key)) throw impossibleAnswer();
  const earlier = await findJoinable(deps.db, input.key, clock.now());
  if (earlier) return await follow(deps, user, earlier, input);

  if (input.options?.webSearch && !deps.ai.web) throw new AppError("WEB_SEARCH_UNAVAILABLE");
  await admitted(deps, user, input);

  // A refusal is told to the client, never stored: a script cannot fill the history (it counts against the limits, spend-limit.ts).
  const verdict = await moderate(deps, input.question, { userId: user.id });
  if (verdict.flagged) throw new AppError("CONTENT_REFUSED");
  input.signal?.throwIfAborted();

  const files = await storeApiFiles(deps, user, input.files ?? []);
  let asked: { conversationId: number; requestId: number };
  try {
    // The web search choice is kept on the question, as the page's (the run reads it there).
    const question = {
      sender: "user" as const,
      messageType: null,
      content: input.question,
      ...(input.options?.webSearch ? { resultData: { web_search: true } } : {}),
    };
    asked = await store(deps, user.id, [question], input.key, files);
  } catch (e) {
    // Its files were stored for a question that is not: gone with it (the winner of a race has its own).
    await forgetUnsentFiles(deps.db, files, user.id).catch((error) => deps.log.warn("v1: the files of an unstored question were kept", { error }));
    // An identical request stored its question first: this one joins it.
    if (e instanceof JoinInstead) return await follow(deps, user, e.earlier, input, true);
    throw e;
  }
  return await answer(deps, user, asked.conversationId, asked.requestId, input, "fresh");
}

/** The checks of a run about to start: the account, the service, then the limits (which count it). */
async function admitted(deps: Deps, user: UserRow, input: CompletionInput): Promise<void> {
  assertCanQuery(user, deps.clock.now());
  await assertOperational(deps);
  await input.admit?.();
}

/**
 * A request asked before (joined-runs.ts): joined, refused with its stored
 * failure, or its failed run run again, which counts in the limits like a
 * new question (`wasAdmitted`: this request's checks were made already).
 */
async function follow(deps: Deps, user: UserRow, earlier: Earlier, input: CompletionInput, wasAdmitted = false): Promise<CompletionResult> {
  const { row, next } = earlier;
  if (next === "refuse") throw impossibleAnswer();
  if (next === "rerun" && !wasAdmitted) await admitted(deps, user, input);
  return await answer(deps, user, row.conversationId, row.id, input, next === "rerun" ? "rerun" : "joined");
}

/**
 * The run of the conversation followed to its stored answer: "fresh", the
 * conversation was made for this request; "rerun", its failed run is run
 * again; "joined", another request's run.
 */
async function answer(
  deps: Deps,
  user: UserRow,
  conversationId: number,
  requestId: number,
  input: CompletionInput,
  how: "fresh" | "rerun" | "joined",
): Promise<CompletionResult> {
  const fresh = how === "fresh";
  const plan = planOf(input.options);
  const start = () => startRun(deps, user, conversationId, { history: input.context, plan });
  const run = fresh ? await startOrForget(deps, user, conversationId, start) : await start();
  input.onRun?.();
  // A streaming client that goes away stops the run it started (« Arrêter » for /v1: upstream calls aborted, refunded
  // unless its answer was stored already); a JSON client's run, or one it joined, is finished and stored for its retry.
  const cancelled = () => {
    if (fresh && input.onRun) stopHere(deps, run.id);
  };
  input.signal?.addEventListener("abort", cancelled, { once: true });
  let stored: ProcessResult;
  try {
    stored = await resultOf(deps, run);
  } catch (error) {
    throw await failureOf(deps, user, run, error, input, how !== "joined");
  }
  return toResult(conversationId, requestId, stored.final_response, stored.message.result_data as Partial<Consolidation> | null);
}

/**
 * A run that does not start (quota spent by a parallel request, maintenance)
 * takes its just-made conversation with it: the refused request leaves
 * nothing behind. No run holds it then (a refused claim is rolled back).
 */
async function startOrForget(deps: Deps, user: UserRow, conversationId: number, start: () => Promise<RunRow>): Promise<RunRow> {
  try {
    return await start();
  } catch (error) {
    await deleteOwnedConversation(deps.db, conversationId, user.id).catch((e) =>
      deps.log.warn("v1: the conversation of a refused request was not deleted", { conversationId, error: e }),
    );
    throw error;
  }
}

/**
 * What a client is told of its run's failure: the run's own error, or, when
 * it failed for a reason the same request meets again, a 400 no client
 * retries. The request that started the run (`started`) counts the failure
 * and, for a lasting one, remembers it and deletes the conversation: a
 * refused request leaves no unanswered question in the history.
 */
async function failureOf(deps: Deps, user: UserRow, run: RunRow, error: unknown, input: CompletionInput, started: boolean): Promise<unknown> {
  const failed = await findRunById(deps.db, run.id).catch(() => undefined);
  // Deleted by the request that started it: a lasting failure, remembered.
  if (!failed) return (await isRememberedImpossible(input.rateLimits, input.key)) ? impossibleAnswer() : error;
  if (failed.status !== "failed" || failed.error === "RUN_STOPPED") return error;
  const lasting = lastingFailure(failed);
  if (started) await forgetFailure(deps, user, run, input, lasting).catch((e) => deps.log.warn("v1: a failed run not counted or not forgotten", { error: e }));
  return lasting ? impossibleAnswer(error instanceof AppError ? error.extra : undefined) : error;
}

async function forgetFailure(deps: Deps, user: UserRow, run: RunRow, input: CompletionInput, lasting: boolean): Promise<void> {
  await countFailedRun(input.rateLimits, user.id);
  if (!lasting) return;
  await rememberImpossible(input.rateLimits, input.key);
  await deleteOwnedConversation(deps.db, run.conversationId, user.id);
}

/** The synthesis plan for the request's options: JSON (json-answer.ts), a bounded length (answer-length.ts), or the engine's own. */
function planOf(options: AnswerOptions = {}): SynthesisPlan | undefined {
  const limit = options.maxTokens ? lengthLimit(options.maxTokens) : undefined;
  if (options.format) return jsonPlan(options.format, limit);
  return limit ? markdownPlan(limit) : undefined;
}

/**
 * The answer reached the client: a retry of the same question from now on is
 * a new question. `store: false` (the Responses API's): its conversation is
 * deleted, as OpenAI keeps no such response (the AI-call log keeps its costs).
 */
export async function delivered(deps: Deps, user: Pick<UserRow, "id">, result: CompletionResult, opts: { store?: boolean } = {}): Promise<void> {
  if (opts.store === false) await deleteOwnedConversation(deps.db, result.conversationId, user.id);
  else await markApiRequestRead(deps.db, result.requestId, deps.clock.now());
}

/** A new conversation with its messages and the request's api_requests row (or JoinInstead). */
async function store(
  deps: Deps,
  userId: number,
  rows: NewMessage[],
  key: AskedKey,
  files: readonly number[],
): Promise<{ conversationId: number; requestId: number }> {
  const now = deps.clock.now();
  return await transaction(deps.db, async (tx) => {
    const conversation = await insertConversation(tx, userId, titleFrom(rows[0]!.content), now, "api");
    const [asked] = await appendMessages(tx, conversation.id, rows, now);
    await attachToMessage(tx, files, userId, conversation.id, asked!.id);
    const request = await claimRequestKey(tx, key, conversation.id, now);
    return { conversationId: conversation.id, requestId: request.id };
  });
}

/** Usage is summed over every model call that reported tokens: the answers and the synthesis. */
function toResult(conversationId: number, requestId: number, text: string, data: Partial<Consolidation> | null): CompletionResult {
  const calls = [...(data?.models ?? []), ...(data?.synthesis ? [data.synthesis] : [])];
  const prompt = calls.reduce((n, c) => n + (c.tokens_in ?? 0), 0);
  const completion = calls.reduce((n, c) => n + (c.tokens_out ?? 0), 0);
  return {
    conversationId,
    requestId,
    text,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    models: data?.available_ais ?? [],
    missing: (data?.failed_ais ?? []).map((f) => ({ model: f.name, reason: f.error })),
    synthesiser: data?.primary_ai ?? "",
    sources: [...new Set((data?.models ?? []).flatMap((m) => (m.status === "answered" ? m.citations : [])))],
    notice: data?.notice ?? null,
    citations: urlCitations(text, data?.web_search?.sources),
  };
}
