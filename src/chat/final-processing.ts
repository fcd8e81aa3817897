import type { ChatTurn } from "../ai/types.ts";
import { type AiCallLog, insertAiCalls } from "../ai/ai-calls.queries.ts";
import { skippedModels } from "../ai/engine.ts";
import type { ModelDef } from "../ai/registry.ts";
import type { Council } from "../council/council-runtime.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError, type ErrorCode } from "../lib/errors.ts";
import { type QuotaSource, refundOneQuery, spendOneQuery } from "../users/quota.queries.ts";
import { assertCanQuery, assertOperational, quotaError } from "./access.ts";
import { consolidate, NoSynthesis } from "./consolidate.ts";
import { isCharged } from "./degraded.ts";
import { appendMessages, findMessage, listMessages, lockOwnedConversation, type MessageRow } from "./chat.queries.ts";
import { claimRun, closedTurns, failRun, findRun, finishRun, holdsRun, markCharged, releaseCharge, type RunRow } from "./runs.queries.ts";
import { ownedConversation } from "./owned-conversation.ts";
import { composeQuestion, condenseTurns, currentTurn, historyTurns } from "./turns.ts";
import { toPublicMessage } from "./chat.view.ts";
import { LiveRun, type RunEvent } from "./live-run.ts";
import { failRunWhenPossible, writeOutcome } from "./final-write.ts";
import { watchRunEvents } from "./run-checkpoints.ts";
import type { SynthesisPlan } from "./synthesis-plan.ts";
import { endStoppedRun, listenForStops, stoppedByUser } from "./run-stop.ts";
import { droppedForClarification, endDroppedRun } from "./run-drop.ts";
import { documentsOfTurn } from "../attachments/run-documents.ts";
import { refusalConfirmer } from "../ai/refusal-confirm.ts";
import { clarifierOf } from "./clarify.ts";
import { askedWithWebSearch, searchQuery } from "../web-search/turn-choice.ts";

export type ProcessResult = Awaited<ReturnType<typeof answerOf>>;

/**
 * Hooks for the OpenAI-compatible API: the context comes from the client's
 * messages, not from stored turns; the synthesis may be asked as JSON (its
 * plan's validator then replaces the section check) or bounded in length.
 */
export type ProcessOptions = { history?: ChatTurn[]; plan?: SynthesisPlan };

/**
 * Starts the final processing of the conversation's last turn, or finds the
 * one that holds it. Exactly one caller claims a turn (processing_runs) and
 * pays for it; the run then goes on in the server whether or not anybody
 * listens, and every other caller (JSON, stream, reload, other device) joins it.
 */
export async function startRun(deps: Deps, user: UserRow, conversationId: number, opts: ProcessOptions = {}): Promise<RunRow> {
  const { db, clock } = deps;
  const conversation = await ownedConversation(deps, user.id, conversationId);
  const all = await listMessages(db, conversation.id);
  const turnMessage = all.findLast((m) => m.sender === "user");
  if (!turnMessage) {
    // No message at all: the conversation was deleted just after it was read (404 then, not 409).
    await ownedConversation(deps, user.id, conversationId);
    throw new AppError("NOTHING_TO_PROCESS");
  }

  const existing = await findRun(db, conversation.id, turnMessage.id);
  if (existing && existing.status !== "failed") return existing;
  if (all.at(-1)?.sender !== "user") throw new AppError("NOTHING_TO_PROCESS");

  assertCanQuery(user, clock.now());
  const { council, models } = await assertOperational(deps);

  // Until the run is in `live`, its committed row must not look like an orphan of this server (run-liveness.ts).
  deps.ai.claiming.add(conversation.id);
  const claim = await deps.ai.writes
    .run(async (tx) => {
      // Deleted since it was read: nothing to claim, nothing charged (the lock orders the claim and a deletion, chat.queries.ts).
      if (!(await lockOwnedConversation(tx, conversation.id, user.id))) throw new AppError("CONVERSATION_NOT_FOUND");
      // An edit, « Nouvelle réponse » or a version switch may have hidden the question read above since (issue 48): a hidden question is never claimed nor charged.
      if ((await findMessage(tx, turnMessage.id))?.superseded !== false) return "hidden" as const;
      const run = await claimRun(tx, {
        conversationId: conversation.id,
        turnMessageId: turnMessage.id,
        userId: user.id,
        server: deps.ai.serverId,
        now: clock.now(),
      });
      if (!run) return null;
      const source = await spendOneQuery(tx, user.id, clock.now());
      // Throwing rolls the claim back with it: a refused spend leaves no trace.
      if (!source) throw quotaError({ ...user, planQueries: 0, extraQueries: 0 }, clock.now());
      await markCharged(tx, run.id, source);
      return { run, source: source! };
    })
    .catch((e) => {
      deps.ai.claiming.delete(conversation.id);
      throw e;
    });
  if (claim === "hidden") {
    // Start again from the conversation as it is now: its shown question is claimed (or joined), and the answer goes under it.
    deps.ai.claiming.delete(conversation.id);
    return await startRun(deps, user, conversationId, opts);
  }
  if (!claim) {
    deps.ai.claiming.delete(conversation.id);
    return (await findRun(db, conversation.id, turnMessage.id))!;
  }

  const lastId = (existing?.events ?? []).reduce((max, e) => Math.max(max, Number(e.id) || 0), 0);
  const live = new LiveRun(claim.run.id, conversation.id, lastId);
  deps.ai.live.set(claim.run.id, live);
  deps.ai.claiming.delete(conversation.id);
  listenForStops(deps);
  watchRunEvents(deps, live);
  live.result = execute(deps, user, claim.run, claim.source, all, council, models, live, opts).finally(() => deps.ai.live.delete(claim.run.id));
  // Nobody may be listening: a failure is already recorded and sent as an event.
  live.result.catch(() => {});
  return claim.run;
}

/** POST /process for a JSON client: the answer once the run is over, exactly as before runs were streamed. */
export async function processConversation(deps: Deps, user: UserRow, conversationId: number, opts: ProcessOptions = {}): Promise<ProcessResult> {
  const run = await startRun(deps, user, conversationId, opts);
  return await resultOf(deps, run);
}

export async function resultOf(deps: Deps, run: RunRow): Promise<ProcessResult> {
  if (run.status === "done") return await answerOf(deps, run);
  const live = deps.ai.live.get(run.id);
  if (live?.result) return (await live.result) as ProcessResult;
  return await waitFor(deps, run);
}

async function execute(
  deps: Deps,
  user: UserRow,
  run: RunRow,
  source: QuotaSource,
  all: MessageRow[],
  council: Council,
  models: ModelDef[],
  live: LiveRun,
  { history, plan }: ProcessOptions,
) {
  const { db, clock, log } = deps;
  const closed = await closedTurns(db, run.conversationId, run.turnMessageId);
  const turn = currentTurn(all, closed);
  const logs: AiCallLog[] = [];
  const unwritten: AiCallLog[] = [];
  const names = council.members.map((m) => m.name);
  try {
    const documents = await documentsOfTurn(deps, user, turn.messages);
    const skipped = skippedModels(deps.ai, council, clock.now());
    const result = await consolidate(
      deps,
      models,
      skipped,
      history ?? historyTurns(turn.earlier, closed),
      composeQuestion(turn.messages),
      condenseTurns(history ?? historyTurns(turn.earlier, closed), names),
      {
        userId: user.id,
        conversationId: run.conversationId,
        logs,
        unwritten,
        live,
        plan,
        // The council's setting as the run took it (a change applies to the next question).
        peerReview: council.peerReview,
        documents,
        // The clarifier's model confirms the texts the refusal pre-filter finds ambiguous (docs/DECISIONS.md, « Refusal judgment »).
        confirmRefusal: refusalConfirmer(deps, clarifierOf(council, models), { userId: user.id, conversationId: run.conversationId, ledger: logs, unwritten }),
        // The question's choice (the page's or the /v1 request's, kept on its message), when the server offers web search.
        webQuery: deps.ai.web && askedWithWebSearch(turn.messages) ? searchQuery(turn.messages) : null,
      },
    );
    const charged = isCharged(result.degraded);
    const done = await writeOutcome(deps, run.id, () =>
      deps.ai.writes.run(async (tx) => {
        // Given up by another server's sweep while this one stalled: the answer comes too late to be stored.
        if (!(await holdsRun(tx, run.id, deps.ai.serverId))) throw new AppError("SERVICE_UNAVAILABLE");
        await insertAiCalls(tx, unwritten);
        const [message] = await appendMessages(
          tx,
          run.conversationId,
          [{ sender: "assistant", messageType: "final_response", content: result.final_response, resultData: { ...result, charged } }],
          clock.now(),
        );
        // The cost rule of degraded answers: shown, not charged.
        if (!charged && (await releaseCharge(tx, run.id, deps.ai.serverId))) await refundOneQuery(tx, user.id, source, clock.now());
        const answer = await answerOf({ ...deps, db: tx }, { resultMessageId: message!.id });
        const final = live.record("final", answer);
        await finishRun(tx, run.id, message!.id, clock.now(), live.storedEvents(), charged);
        return { answer, final };
      }),
    );
    // Told once committed: a client that reads on finds the answer and the balance it announces.
    live.publish(done.final);
    return done.answer;
  } catch (e) {
    const answers = e instanceof NoSynthesis ? e.answers : [];
    // The clarifier asked a precision of a question whose run POST /chat had started: no trace left (run-drop.ts).
    if (droppedForClarification(live)) return await endDroppedRun(deps, { userId: user.id, run, source, live, unwritten });
    // « Arrêter »: refunded, what the models wrote kept as a stopped message (run-stop.ts).
    if (stoppedByUser(live)) return await endStoppedRun(deps, { userId: user.id, run, source, live, answers, unwritten });
    const code: ErrorCode = e instanceof AppError ? e.code : "SERVICE_UNAVAILABLE";
    // The engine's own detail when it has one (who declined), else the table's text.
    const detail = e instanceof NoSynthesis ? e.message : new AppError(code).message;
    const failed = live.record("failed", { code, detail, refunded: true, answers });
    const events = live.storedEvents();
    // Announced once the refund is committed (a client that reads on sees it); told even if that write failed, so no stream waits forever.
    await failRunWhenPossible(deps, run.id, () =>
      deps.ai.writes.run(async (tx) => {
        await insertAiCalls(tx, unwritten);
        // A run another server's sweep failed (and refunded) meanwhile is no longer this server's to write.
        const held = await holdsRun(tx, run.id, deps.ai.serverId);
        if (held && (await releaseCharge(tx, run.id, deps.ai.serverId))) await refundOneQuery(tx, user.id, source, clock.now());
        if (held) await failRun(tx, run.id, code, clock.now(), events);
      }),
    );
    live.publish(failed);
    if (!(e instanceof AppError)) log.error("final processing failed", { run: run.id, error: e });
    throw runFailure(code, answers, detail);
  }
}

type IndividualAnswer = { name: string; answer: string };

/** The error a JSON caller gets for a failed run: with what the models said, when any answered (labelled by model). */
function runFailure(code: ErrorCode, answers: readonly IndividualAnswer[], detail?: string): AppError {
  return new AppError(code, detail, {}, answers.length > 0 ? { answers } : undefined);
}

/** The individual answers a failed run recorded in its "failed" event. */
function answersOf(run: RunRow): IndividualAnswer[] {
  const failed = ((run.events ?? []) as RunEvent[]).findLast((e) => e.type === "failed");
  const answers = failed?.data.answers;
  return Array.isArray(answers) ? (answers as IndividualAnswer[]) : [];
}

/** The detail a failed run told in its "failed" event (who declined), when it is more precise than the table's text. */
function detailOf(run: RunRow): string | undefined {
  const detail = ((run.events ?? []) as RunEvent[]).findLast((e) => e.type === "failed")?.data.detail;
  return run.error === "COUNCIL_DECLINED" && typeof detail === "string" ? detail : undefined;
}

export async function answerOf(deps: Deps, run: Pick<RunRow, "resultMessageId">) {
  const message = await findMessage(deps.db, run.resultMessageId!);
  if (!message) throw new AppError("CONVERSATION_NOT_FOUND");
  const data = (message.resultData ?? {}) as {
    final_response?: string;
    primary_ai?: string;
    available_ais?: string[];
    notice?: string | null;
    cost_eur?: number;
  };
  return {
    conversation_id: message.conversationId,
    final_response: data.final_response ?? message.content,
    primary_ai: data.primary_ai ?? "",
    available_ais: data.available_ais ?? [],
    degraded_notice: data.notice ?? null,
    message: toPublicMessage(message),
  };
}

/**
 * A run of another process (or one that just ended): its row, read again
 * whenever its writer announces a change (PostgreSQL's NOTIFY) and every
 * `rereadMs` in any case, as a stream following it (src/db/run-wakeups.ts).
 */
async function waitFor(deps: Deps, run: RunRow): Promise<ProcessResult> {
  // Worst case of one run: the whole budget, plus the final write.
  const giveUpAt = performance.now() + deps.config.ai.budgetMs + 10_000;
  let woken = false;
  let wake = () => {};
  const unfollow = deps.ai.wakeups.follow(run.id, () => {
    woken = true;
    wake();
  });
  try {
    while (performance.now() < giveUpAt) {
      woken = false;
      const now = await findRun(deps.db, run.conversationId, run.turnMessageId);
      if (now?.status === "done") return await answerOf(deps, now);
      if (!now) throw new AppError("SERVICE_UNAVAILABLE");
      if (now.status === "failed") throw runFailure((now.error as ErrorCode | null) ?? "SERVICE_UNAVAILABLE", answersOf(now), detailOf(now));
      // Woken while reading: read again at once.
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(deps.ai.wakeups.rereadMs, Math.max(0, giveUpAt - performance.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
  } finally {
    unfollow();
  }
  throw new AppError("SERVICE_UNAVAILABLE");
}
