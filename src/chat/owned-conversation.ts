import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { type ConversationRow, findOwnedConversation } from "./chat.queries.ts";

/** The user's conversation; another user's reads like a missing one (404). */
export async function ownedConversation(deps: Deps, userId: number, id: number): Promise<ConversationRow> {
  const conversation = await findOwnedConversation(deps.db, id, userId);
  if (!conversation) throw new AppError("CONVERSATION_NOT_FOUND");
  return conversation;
}
