import { moderate } from "../ai/moderation.ts";
import type { UserRow } from "../db/schema/index.ts";
import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { webChoiceOf } from "../web-search/turn-choice.ts";
import { AppError } from "../lib/errors.ts";
import { assertCanQuery, assertOperational } from "./access.ts";
import { appendMessages, listMessages, lockOwnedConversation } from "./chat.queries.ts";
import { conversationMessages } from "./chat.service.ts";
import { ownedConversation } from "./owned-conversation.ts";
import { shownConversation } from "./shown-conversation.ts";
import { runningRunOf } from "./runs.queries.ts";
import { lastVersionOf, recountMessages, sealShownVersion, showVersion, supersedeFrom } from "./versions.queries.ts";

/**
 * Edit and ask again, « Nouvelle réponse », and the switch between versions
 * (docs/API.md, "The page's conversation API"). The last question of a
 * conversation is asked again, edited or as it was: the question shown and
 * everything after it become version n of its group, hidden (`superseded`),
 * and the new question is version n + 1, which the client then sends to
 * POST /process like any question (charged there, as a request). Hidden
 * versions stay for the switcher « 1/2 » but are left out of the models'
 * context, the history's count and preview, the export and a shared copy:
 * each shows the version shown. Switching makes another version the shown
 * one; a later question stays where it is.
 */

/**
 * POST /conversation/{id}/edit (`edited`) and /regenerate (none): the new
 * version of the last question, ready for /process. The same checks as a
 * new question before anything changes: quota, maintenance, and an edited
 * text's moderation (refused: nothing changes). Never during a run.
 */
export async function askAgain(deps: Deps, user: UserRow, conversationId: number, edited?: string) {
  const { db, clock } = deps;
  assertCanQuery(user, clock.now());
  await assertOperational(deps);
  const conversation = await ownedConversation(deps, user.id, conversationId);
  if (await runningRunOf(db, conversation.id)) throw new AppError("RUN_IN_PROGRESS");
  if (!(await listMessages(db, conversation.id)).some((m) => m.sender === "user")) throw new AppError("NOTHING_TO_REDO");
  if (edited !== undefined) {
    const verdict = await moderate(deps, edited, { userId: user.id, conversationId: conversation.id });
    if (verdict.flagged) throw new AppError("CONTENT_REFUSED");
  }
  await transaction(
    db,
    async (tx) => {
      if (!(await lockOwnedConversation(tx, conversation.id, user.id))) throw new AppError("CONVERSATION_NOT_FOUND");
      if (await runningRunOf(tx, conversation.id)) throw new AppError("RUN_IN_PROGRESS");
      // Read again under the lock: another tab may have asked again meanwhile.
      const question = (await listMessages(tx, conversation.id)).findLast((m) => m.sender === "user");
      if (!question) throw new AppError("NOTHING_TO_REDO");
      const group = question.versionGroup ?? question.id;
      await supersedeFrom(tx, conversation.id, question.id, group, question.version ?? 1);
      const version = (await lastVersionOf(tx, conversation.id, group)) + 1;
      await appendMessages(
        tx,
        conversation.id,
        // A question asked with web search is asked again with it (issue 45: the choice is kept on the question).
        [{ sender: "user", messageType: null, content: edited ?? question.content, versionGroup: group, version, ...webChoiceOf(question) }],
        clock.now(),
      );
      await recountMessages(tx, conversation.id);
    },
    { isolation: "read committed" },
  );
  return { conversation_id: conversation.id, ...(await shownConversation(deps, conversation.id)), needs_clarification: false, requires_final_processing: true };
}

/** PUT /conversation/{id}/versions/{group}: shows that version of the question; 404 for a version it does not have. */
export async function switchVersion(deps: Deps, userId: number, conversationId: number, group: number, version: number) {
  const conversation = await ownedConversation(deps, userId, conversationId);
  await transaction(
    deps.db,
    async (tx) => {
      if (!(await lockOwnedConversation(tx, conversation.id, userId))) throw new AppError("CONVERSATION_NOT_FOUND");
      if (await runningRunOf(tx, conversation.id)) throw new AppError("RUN_IN_PROGRESS");
      await sealShownVersion(tx, conversation.id, group);
      if (!(await showVersion(tx, conversation.id, group, version))) throw new AppError("VERSION_NOT_FOUND");
      await recountMessages(tx, conversation.id);
    },
    { isolation: "read committed" },
  );
  return await conversationMessages(deps, userId, conversation.id);
}
