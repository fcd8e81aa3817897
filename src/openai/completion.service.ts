import { moderate } from "../ai/moderation.ts";
import type { ChatTurn } from "../ai/types.ts";
import { transaction } from "../db/transaction.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { RunRow } from "../chat/runs.queries.ts";
import type { Deps } from "../deps.ts";
import { assertCanQuery, assertOperational } from "../chat/access.ts";
import type { Consolidation } from "../contracts/answer.ts";
import { type ProcessResult, resultOf, startRun } from "../chat/final-processing.ts";
import type { RunEvent } from "../chat/live-run.ts";
import { appendMessages, deleteOwnedConversation, insertConversation, type NewMessage } from "../chat/chat.queries.ts";
import { titleFrom } from "../chat/chat.view.ts";
import { AppError } from "../lib/errors.ts";
import { SynthesisForwarder } from "./forward.ts";

export type CompletionInput = {
  /** The last user message of the request. */
  question: string;
  /** The earlier messages, already alternating user/assistant and trimmed (messages.ts). */
  context: ChatTurn[];
  /** Called with the answer's text as the synthesis is written; the calls add up to the stored answer (SynthesisForwarder). */
  onDelta?: (text: string) => void;
  /** The client went away: nothing is started after it fires, and a run already started goes on without it. */
  signal?: AbortSignal;
};

export type CompletionResult = {
  conversationId: number;
  text: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /** Models whose answer went into the synthesis. */
  models: string[];
  missing: Array<{ model: string; reason: string }>;
  synthesiser: string;
  /** Streamed only: a synthesiser failed after some of its text was sent, and the stored answer followed a restart line. */
  restarted?: boolean;
};

/**
 * The one seam between /v1/chat/completions and the engine: a whole question
 * through the same rules as the page (quota 402, maintenance 503, moderation
 * 400 (the refusal is not stored), one request charged once and refunded on
 * failure), stored as a conversation marked "api". The clarifying pre-pass
 * and the "too vague" reply are skipped: an API client cannot answer back.
 *
 * With onDelta, the run's synthesis is followed as it is written (its
 * LiveRun) and forwarded so that the deltas add up to the stored answer
 * (forward.ts); the result is the stored answer either way.
 */
export async function complete(deps: Deps, user: UserRow, input: CompletionInput): Promise<CompletionResult> {
  const { clock } = deps;
  assertCanQuery(user, clock.now());
  assertOperational(deps);

  // A refusal is told to the client, never stored: a script cannot fill the history (it counts against the limits, spend-limit.ts).
  const verdict = await moderate(deps, input.question, { userId: user.id });
  if (verdict.flagged) throw new AppError("CONTENT_REFUSED");
  input.signal?.throwIfAborted();

  const conversationId = await store(deps, user.id, [{ sender: "user", messageType: null, content: input.question }]);
  const run = await startRunOrForget(deps, user, conversationId, input.context);
  const forwarder = input.onDelta ? new SynthesisForwarder(input.onDelta) : null;
  const unfollow = (forwarder && deps.ai.live.get(run.id)?.follow(0, (e) => forwardSafely(deps, forwarder, e))) || (() => {});
  // A client that goes away stops the forwarding, never the run: it is finished, charged and stored.
  input.signal?.addEventListener("abort", unfollow, { once: true });
  let answer: ProcessResult;
  try {
    answer = await resultOf(deps, run);
  } finally {
    unfollow();
  }
  const result = toResult(conversationId, answer.final_response, answer.message.result_data as Partial<Consolidation> | null);
  if (!forwarder) return result;
  forwarder.end(result.text);
  return { ...result, restarted: forwarder.restarted };
}

/**
 * A run that does not start (quota spent by a parallel request, maintenance)
 * takes its just-made conversation with it: the refused request leaves
 * nothing behind. No run holds it then (a refused claim is rolled back).
 */
async function startRunOrForget(deps: Deps, user: UserRow, conversationId: number, history: ChatTurn[]): Promise<RunRow> {
  try {
    return await startRun(deps, user, conversationId, { history });
  } catch (error) {
    await deleteOwnedConversation(deps.db, conversationId, user.id).catch((e) =>
      deps.log.warn("v1: the conversation of a refused request was not deleted", { conversationId, error: e }),
    );
    throw error;
  }
}

/** The forwarder runs inside the run's own emit: whatever goes wrong with a client must not reach the synthesis. */
function forwardSafely(deps: Deps, forwarder: SynthesisForwarder, e: RunEvent) {
  try {
    forwarder.on(e);
  } catch (error) {
    deps.log.warn("v1 stream: an event was not forwarded", { type: e.type, error });
  }
}

async function store(deps: Deps, userId: number, rows: NewMessage[]): Promise<number> {
  const now = deps.clock.now();
  return await transaction(deps.db, async (tx) => {
    const conversation = await insertConversation(tx, userId, titleFrom(rows[0]!.content), now, "api");
    await appendMessages(tx, conversation.id, rows, now);
    return conversation.id;
  });
}

/** Usage is summed over every model call that reported tokens: the answers and the synthesis. */
function toResult(conversationId: number, text: string, data: Partial<Consolidation> | null): CompletionResult {
  const calls = [...(data?.models ?? []), ...(data?.synthesis ? [data.synthesis] : [])];
  const prompt = calls.reduce((n, c) => n + (c.tokens_in ?? 0), 0);
  const completion = calls.reduce((n, c) => n + (c.tokens_out ?? 0), 0);
  return {
    conversationId,
    text,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    models: data?.available_ais ?? [],
    missing: (data?.failed_ais ?? []).map((f) => ({ model: f.name, reason: f.error })),
    synthesiser: data?.primary_ai ?? "",
  };
}
