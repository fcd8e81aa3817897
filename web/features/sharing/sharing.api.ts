import { api, unwrap } from "../../lib/api.ts";

/** PATCH /unisson/conversation/{id}: the server's answer carries the title as stored (spaces folded). */
export const renameConversation = (id: number, title: string) => unwrap(api.unisson.conversation[":id"].$patch({ param: { id: String(id) }, json: { title } }));

/** The open conversation's title, for the rename dialog of the conversation bar. */
export const conversationTitleOf = async (id: number) => (await unwrap(api.unisson.conversation[":id"].$get({ param: { id: String(id) } }))).title;

/** POST /shares: the link, shown once. */
export const createShare = (conversationId: number, includeModels: boolean) =>
  unwrap(api.shares.$post({ json: { conversation_id: conversationId, include_models: includeModels } }));

export const listShares = async () => (await unwrap(api.shares.$get())).shares;

export const revokeShare = (id: number) => unwrap(api.shares[":id"].$delete({ param: { id: String(id) } }));

/** GET /shared/{token}: the copy, without a session. */
export const fetchSharedCopy = (token: string) => unwrap(api.shared[":token"].$get({ param: { token } }));

export type SharedCopy = Awaited<ReturnType<typeof fetchSharedCopy>>;
export type PublicShare = Awaited<ReturnType<typeof listShares>>[number];
