import type { ModelDef } from "../ai/ai.registry.ts";
import type { ChatTurn } from "../ai/ai.types.ts";
import { type AiCallLog, insertAiCalls } from "../ai/ai.calls.queries.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError, type ErrorCode } from "../lib/errors.ts";
import { type QuotaSource, refundOneQuery, spendOneQuery } from "../users/quota.queries.ts";
import { assertCanQuery, assertOperational, quotaError } from "./chat.access.ts";
import { consolidate } from "./chat.consolidate.ts";
import { appendMessages, findMessage, listMessages, type MessageRow } from "./chat.queries.ts";
import { claimRun, failRun, finishRun, findRun, markCharged, type RunRow } from "./chat.runs.queries.ts";
import { ownedConversation } from "./chat.service.ts";
import { composeQuestion, currentTurn, historyTurns } from "./chat.turn.ts";
import { toPublicMessage } from "./chat.view.ts";

export type ProcessResult = Awaited<ReturnType<typeof answerOf>>;

const POLL_MS = 100;

/** Hook for the OpenAI-compatible API: the context comes from the client's messages, not from stored turns. */
export type ProcessOptions = { history?: ChatTurn[] };

/**
 * POST /process. The turn is the conversation's last user message. Exactly
 * one caller claims it (processing_runs) and pays for it; every other caller,
 * at the same moment or later, gets the same stored answer and pays nothing.
 */
export async function processConversation(deps: Deps, user: UserRow, conversationId: number, opts: ProcessOptions = {}) {
  const { db, clock } = deps;
  const conversation = ownedConversation(deps, user.id, conversationId);
  const all = listMessages(db, conversation.id);
  const turnMessage = all.findLast((m) => m.sender === "user");
  if (!turnMessage) throw new AppError("NOTHING_TO_PROCESS");

  const existing = findRun(db, conversation.id, turnMessage.id);
  if (existing?.status === "done") return answerOf(deps, existing);
  if (existing?.status === "running") return waitFor(deps, existing);
  if (all.at(-1)?.sender !== "user") throw new AppError("NOTHING_TO_PROCESS");

  assertCanQuery(user, clock.now());
  const models = assertOperational(deps);

  const claim = await deps.ai.writes.run(() => {
    const run = claimRun(db, { conversationId: conversation.id, turnMessageId: turnMessage.id, userId: user.id, now: clock.now() });
    if (!run) return null;
    const source = spendOneQuery(db, user.id, clock.now());
    // Throwing rolls the claim back with it: a refused spend leaves no trace.
    if (!source) throw quotaError({ ...user, planQueries: 0, extraQueries: 0 }, clock.now());
    markCharged(db, run.id, source);
    return { run, source: source! };
  });
  if (!claim) return waitFor(deps, findRun(db, conversation.id, turnMessage.id)!);

  const work = execute(deps, user, claim.run, claim.source, all, models, opts.history);
  deps.ai.inflight.set(claim.run.id, work);
  try {
    return await work;
  } finally {
    deps.ai.inflight.delete(claim.run.id);
  }
}

async function execute(deps: Deps, user: UserRow, run: RunRow, source: QuotaSource, all: MessageRow[], models: ModelDef[], history?: ChatTurn[]) {
  const { db, clock, log } = deps;
  const turn = currentTurn(all);
  const logs: AiCallLog[] = [];
  try {
    const result = await consolidate(deps, models, history ?? historyTurns(turn.earlier), composeQuestion(turn.messages), {
      userId: user.id,
      conversationId: run.conversationId,
      logs,
    });
    const done = await deps.ai.writes.run(() => {
      insertAiCalls(db, logs);
      const [message] = appendMessages(
        db,
        run.conversationId,
        [{ sender: "assistant", messageType: "final_response", content: result.final_response, resultData: result }],
        clock.now(),
      );
      finishRun(db, run.id, message!.id, clock.now());
      return { ...run, status: "done" as const, resultMessageId: message!.id };
    });
    return answerOf(deps, done);
  } catch (e) {
    const code: ErrorCode = e instanceof AppError ? e.code : "SERVICE_UNAVAILABLE";
    await deps.ai.writes.run(() => {
      insertAiCalls(db, logs);
      refundOneQuery(db, user.id, source, clock.now());
      failRun(db, run.id, code, clock.now());
    });
    if (!(e instanceof AppError)) log.error("final processing failed", { run: run.id, error: e });
    throw e instanceof AppError ? e : new AppError("SERVICE_UNAVAILABLE");
  }
}

function answerOf(deps: Deps, run: Pick<RunRow, "resultMessageId">) {
  const message = findMessage(deps.db, run.resultMessageId!);
  if (!message) throw new AppError("CONVERSATION_NOT_FOUND");
  const data = (message.resultData ?? {}) as { final_response?: string; primary_ai?: string; available_ais?: string[] };
  return {
    conversation_id: message.conversationId,
    final_response: data.final_response ?? message.content,
    primary_ai: data.primary_ai ?? "",
    available_ais: data.available_ais ?? [],
    message: toPublicMessage(message),
  };
}

/** Another call holds the turn: share its promise in this process, or watch its row (another process). */
async function waitFor(deps: Deps, run: RunRow): Promise<ProcessResult> {
  const inflight = deps.ai.inflight.get(run.id);
  if (inflight) return (await inflight) as ProcessResult;
  // Worst case of one run: answers, then every synthesis attempt, each under the timeout.
  const giveUpAt = performance.now() + deps.ai.timeoutMs * 8 + 10_000;
  while (performance.now() < giveUpAt) {
    const now = findRun(deps.db, run.conversationId, run.turnMessageId);
    if (now?.status === "done") return answerOf(deps, now);
    if (!now || now.status === "failed") throw new AppError((now?.error as ErrorCode | null) ?? "SERVICE_UNAVAILABLE");
    await Bun.sleep(POLL_MS);
  }
  throw new AppError("SERVICE_UNAVAILABLE");
}
