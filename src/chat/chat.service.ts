import { moderate } from "../ai/moderation.ts";
import { transaction } from "../db/transaction.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { assertCanQuery, assertOperational } from "./access.ts";
import { clarificationText, clarifyingQuestions, DETAIL_REQUEST_TEXT, isTooVague } from "./clarify.ts";
import {
  appendMessages,
  type ConversationRow,
  deleteOwnedConversation,
  renameOwnedConversation,
  lockOwnedConversation,
  insertConversation,
  listMessages,
  type NewMessage,
} from "./chat.queries.ts";
import { closedTurns, type RunRow, runningRunOf } from "./runs.queries.ts";
import { ownedConversation } from "./owned-conversation.ts";
import { startRun } from "./final-processing.ts";
import { dropRun } from "./run-drop.ts";
import { holdAsk } from "./pending-asks.ts";
import { awaitsClarificationReply, composeQuestion, condensedHistory, currentTurn } from "./turns.ts";
import { titleFrom } from "./chat.view.ts";
import { shownConversation } from "./shown-conversation.ts";
import { attachmentsToSend } from "../attachments/attachments.service.ts";
import { attachToMessage } from "../attachments/attachments.queries.ts";
import { withAttachments } from "../attachments/message-attachments.ts";

/** `start_run`: start the run while the clarifier decides (askWithRunStarted); `ask_id`: names that ask for POST /chat/stop. */
export type ChatInput = {
  conversation_id?: number | null;
  message: string;
  attachments?: number[];
  start_run?: boolean;
  ask_id?: string;
  web_search?: boolean;
};

/**
 * POST /chat, in the order of the issue: quota (402, nothing charged),
 * maintenance (503), moderation (stored refusal + 400), too vague (detail
 * request), then the clarification pre-pass, at most once per question. All
 * writes of a message happen in one transaction at the end, but with
 * `start_run` (askWithRunStarted: the question first, for its run to be claimed on).
 */
export async function sendMessage(deps: Deps, user: UserRow, input: ChatInput) {
  const { db, clock } = deps;
  const message = input.message.trim();
  if (!message) throw new AppError("EMPTY_MESSAGE");
  assertCanQuery(user, clock.now());
  const { council, models: available } = await assertOperational(deps);
  const files = (await attachmentsToSend(deps, user.id, input.attachments)).map((a) => a.id);

  const existing = input.conversation_id != null ? await ownedConversation(deps, user.id, input.conversation_id) : undefined;
  // A message during a run would land before its answer and never be answered itself.
  if (existing && (await runningRunOf(db, existing.id))) throw new AppError("RUN_IN_PROGRESS");
  const previous = existing ? await listMessages(db, existing.id) : [];
  const closed = existing ? await closedTurns(db, existing.id) : new Set<number>();
  const turn = currentTurn(previous, closed);
  const followUp = turn.earlier.some((m) => m.messageType === "final_response");
  const ctx = { userId: user.id, conversationId: existing?.id ?? null };
  if (input.web_search && !deps.ai.web) throw new AppError("WEB_SEARCH_UNAVAILABLE");
  // The choice is kept on the question: its run (now, or a later POST /process) reads it there (src/web-search/turn-choice.ts).
  const userMessage: NewMessage = { sender: "user", messageType: null, content: message, ...(input.web_search ? { resultData: { web_search: true } } : {}) };

  const verdict = await moderate(deps, message, ctx);
  if (verdict.flagged) {
    await save(deps, user.id, existing, files, [
      userMessage,
      { sender: "assistant", messageType: "content_moderation", content: errorText(), resultData: { categories: verdict.categories } },
    ]);
    throw new AppError("CONTENT_REFUSED");
  }

  // A reply to a clarification (or a second message before processing) always goes to final processing.
  const pendingReply = awaitsClarificationReply(turn) || turn.last?.sender === "user";
  // With documents, the question is about them: neither too vague nor in need of a clarification.
  if (pendingReply || files.length > 0) return await reply(deps, await save(deps, user.id, existing, files, [userMessage]), false, true);

  if (isTooVague(message, followUp)) {
    const id = await save(deps, user.id, existing, files, [userMessage, { sender: "assistant", messageType: "detail_request", content: DETAIL_REQUEST_TEXT }]);
    return await reply(deps, id, false, false);
  }

  const clarify = (conversationId: number | null) =>
    clarifyingQuestions(
      deps,
      council,
      available,
      composeQuestion([...turn.messages, userMessage]),
      { ...ctx, conversationId },
      condensedHistory(
        turn.earlier,
        closed,
        council.members.map((m) => m.name),
      ),
    );
  // The clarification pre-pass, at most once per question.
  if (!turn.hadClarification) {
    if (input.start_run) return await askWithRunStarted(deps, user, existing, userMessage, clarify, input.ask_id);
    const questions = await clarify(ctx.conversationId);
    if (questions.length > 0) return await reply(deps, await save(deps, user.id, existing, files, [userMessage, clarificationMessage(questions)]), true, false);
  }
  return await reply(deps, await save(deps, user.id, existing, files, [userMessage]), false, true);
}

/**
 * `start_run` (the page; issue 34, the first text within a second): the
 * question is stored and its run started (charged, refused, joined exactly as
 * POST /process would: startRun) while the clarifier decides, instead of
 * after it. No precision asked: the run goes on, `run_started` tells the
 * client that /process joins it. A precision asked: the run is dropped
 * (run-drop.ts: aborted, refunded, no trace) and the clarification stored as
 * without `start_run`. A run that could not start (a spend refused in the
 * meantime) is /process's to refuse, as before; one that ended before the
 * clarifier answered (answered, or failed) stands, and the precision is not asked.
 */
async function askWithRunStarted(
  deps: Deps,
  user: UserRow,
  existing: ConversationRow | undefined,
  userMessage: NewMessage,
  clarify: (conversationId: number) => Promise<string[]>,
  askId?: string,
) {
  const id = await save(deps, user.id, existing, [], [userMessage]);
  const ask = askId ? holdAsk(deps, user.id, askId) : null;
  try {
    const starting = startRunIfAllowed(deps, user, id);
    const clarifying = clarify(id);
    const decided = Promise.all([starting, clarifying]);
    // « Arrêter » before the verdict (pending-asks.ts): the run is dropped like a run a precision replaces, and the turn ends stopped.
    if (ask && (await Promise.race([decided.then(() => false), ask.stopped.then(() => true)]))) {
      const run = await starting;
      if (!run || (await dropRun(deps, run))) {
        clarifying.catch(() => {});
        return await reply(deps, await save(deps, user.id, { id }, [], [STOPPED_WHILE_CLARIFYING]), false, false);
      }
    }
    const [run, questions] = await decided;
    if (questions.length > 0 && (!run || (await dropRun(deps, run)))) {
      return await reply(deps, await save(deps, user.id, { id }, [], [clarificationMessage(questions)]), true, false);
    }
    return await reply(deps, id, false, true, run !== null);
  } finally {
    ask?.release();
  }
}

/** The end of a turn stopped before its run wrote anything: nothing to keep, but the next message is a new question. */
const STOPPED_WHILE_CLARIFYING: NewMessage = {
  sender: "assistant",
  messageType: "stopped_response",
  content: "",
  resultData: { stopped: true, answers: [], partial_answers: [], partial_synthesis: null },
};

async function startRunIfAllowed(deps: Deps, user: UserRow, conversationId: number): Promise<RunRow | null> {
  try {
    return await startRun(deps, user, conversationId);
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

function clarificationMessage(questions: string[]): NewMessage {
  return {
    sender: "assistant",
    messageType: questions.length === 1 ? "mono_clarification" : "clarification",
    content: clarificationText(questions),
    resultData: { questions },
  };
}

function errorText(): string {
  return new AppError("CONTENT_REFUSED").message;
}

/**
 * Creates the conversation on its first message and appends, all or nothing.
 * An existing conversation is locked and read again first: moderation and
 * the clarification pre-pass took time, in which it may have been deleted
 * (404) or a run may have started on it (409), as sendMessage checked at
 * its start (read committed, so what committed meanwhile is seen).
 */
async function save(
  deps: Deps,
  userId: number,
  existing: Pick<ConversationRow, "id"> | undefined,
  files: readonly number[],
  rows: NewMessage[],
): Promise<number> {
  const now = deps.clock.now();
  return await transaction(
    deps.db,
    async (tx) => {
      if (existing) {
        if (!(await lockOwnedConversation(tx, existing.id, userId))) throw new AppError("CONVERSATION_NOT_FOUND");
        if (await runningRunOf(tx, existing.id)) throw new AppError("RUN_IN_PROGRESS");
      }
      const conversation = existing ?? (await insertConversation(tx, userId, titleFrom(rows[0]!.content), now));
      const [asked] = await appendMessages(tx, conversation.id, rows, now);
      // The uploads go with the user's message (rows[0]); one sent meanwhile by another request fails the whole message.
      if ((await attachToMessage(tx, files, userId, conversation.id, asked!.id)) !== files.length) throw new AppError("ATTACHMENT_NOT_FOUND");
      return conversation.id;
    },
    { isolation: "read committed" },
  );
}

/** `run_started`: the turn's run is under way already (start_run); POST /process joins it. */
async function reply(deps: Deps, conversationId: number, needsClarification: boolean, requiresFinal: boolean, runStarted = false) {
  return {
    conversation_id: conversationId,
    messages: await withAttachments(deps.db, await listMessages(deps.db, conversationId)),
    needs_clarification: needsClarification,
    requires_final_processing: requiresFinal,
    run_started: runStarted,
  };
}

export async function conversationMessages(deps: Deps, userId: number, id: number) {
  const conversation = await ownedConversation(deps, userId, id);
  return {
    id: conversation.id,
    title: conversation.title,
    source: conversation.source,
    ...(await shownConversation(deps, conversation.id)),
  };
}

/** Refused while a run holds the conversation: the run would write its answer and its refund into nothing. */
/**
 * Never while a run holds the conversation: the run's charge would go with
 * its row, unrefunded. The conversation is locked before the running run is
 * read, at read committed, so a claim in flight is waited for and then seen
 * (409), or waits for the deletion and finds nothing (404).
 */
export async function deleteConversation(deps: Deps, userId: number, id: number) {
  await transaction(
    deps.db,
    async (tx) => {
      if (!(await lockOwnedConversation(tx, id, userId))) throw new AppError("CONVERSATION_NOT_FOUND");
      if (await runningRunOf(tx, id)) throw new AppError("DELETE_DURING_RUN");
      await deleteOwnedConversation(tx, id, userId);
    },
    { isolation: "read committed" },
  );
  return { success: true };
}

/** PATCH /conversation/{id}: another user's conversation reads like a missing one (404). */
export async function renameConversation(deps: Deps, userId: number, id: number, title: string) {
  if (!(await renameOwnedConversation(deps.db, id, userId, title))) throw new AppError("CONVERSATION_NOT_FOUND");
  return { id, title };
}
