import { ownedConversation } from "../chat/owned-conversation.ts";
import { listMessages } from "../chat/chat.queries.ts";
import type { SharedSnapshot } from "../db/schema/index.ts";
import { transaction } from "../db/transaction.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";
import { snapshotOf } from "./snapshot.ts";
import { countSharedLinks, deleteSharedLink, findSharedLink, insertSharedLink, listSharedLinks, type SharedLinkRow } from "./sharing.queries.ts";

/** Live links per account: each holds a copy of its conversation. */
export const MAX_SHARED_LINKS = 100;
/** Bytes of randomness in a token: 256 bits, 43 base64url characters. */
const TOKEN_BYTES = 32;
/** Characters of the token kept in clear so the owner tells links apart (the rest still holds 232 random bits). */
const SHOWN_CHARS = 4;
/** The path of a shared page; the token follows. */
export const SHARED_PATH = "/partage/";

export type PublicShare = { id: number; conversation_id: number; title: string; prefix: string; include_models: boolean; created_at: string };

export function toPublicShare(row: SharedLinkRow): PublicShare {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    title: row.snapshot.title,
    prefix: row.prefix,
    include_models: row.includeModels,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * POST /api/shares: freezes the conversation as it is now and returns the
 * link, the only time its token exists in clear (only its SHA-256 is
 * stored). The count and the insert share one write transaction, so two
 * creations at once cannot pass the limit.
 */
export async function createShare(deps: Deps, userId: number, input: { conversation_id: number; include_models: boolean }) {
  const conversation = await ownedConversation(deps, userId, input.conversation_id);
  const snapshot = snapshotOf(conversation.title, await listMessages(deps.db, conversation.id), input.include_models);
  if (snapshot.turns.length === 0) throw new AppError("NOTHING_TO_SHARE");
  const token = randomToken(TOKEN_BYTES);
  const row = await transaction(deps.db, async (tx) => {
    if ((await countSharedLinks(tx, userId)) >= MAX_SHARED_LINKS) throw new AppError("SHARE_LIMIT");
    return await insertSharedLink(tx, {
      userId,
      conversationId: conversation.id,
      tokenHash: sha256(token),
      prefix: token.slice(0, SHOWN_CHARS),
      includeModels: input.include_models,
      snapshot,
      createdAt: deps.clock.now(),
    });
  });
  return { ...toPublicShare(row), url: `${deps.config.publicUrl}${SHARED_PATH}${token}` };
}

export async function listShares(deps: Deps, userId: number) {
  return { shares: (await listSharedLinks(deps.db, userId)).map(toPublicShare) };
}

/** Another user's link reads like a missing one (404). */
export async function revokeShare(deps: Deps, userId: number, id: number) {
  if (!(await deleteSharedLink(deps.db, userId, id))) throw new AppError("SHARE_NOT_FOUND");
  return { success: true as const };
}

/** The copy behind a token, or undefined: revoked, conversation or account deleted, or never issued all read the same. */
export async function sharedCopy(deps: Deps, token: string): Promise<{ snapshot: SharedSnapshot; sharedAt: Date } | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const row = await findSharedLink(deps.db, sha256(token));
  return row && { snapshot: row.snapshot, sharedAt: row.createdAt };
}
