import type { AdminUserUpdate, CouncilMemberAdd, CouncilMemberPatch } from "../../lib/api-types.ts";
import { api, unwrap } from "../../lib/api.ts";
import { withToken } from "./admin-errors.ts";

/** The admin panel's calls (docs/PRODUCT.md#admin); reads wait once for a token that may still be settling. */
export const fetchStats = () => withToken(() => unwrap(api.admin.stats.$get()));
export const fetchUsage = () => withToken(() => unwrap(api.admin.usage.$get({ query: {} })));
export const fetchAiCosts = () => withToken(() => unwrap(api.admin["ai-costs"].$get()));

export const fetchUsers = (page: number, perPage: number, q: string) =>
  withToken(() => unwrap(api.admin.users.$get({ query: { page: String(page), per_page: String(perPage), ...(q ? { q } : {}) } })));

export const fetchUserDetail = (id: number) => unwrap(api.admin.users[":id"].$get({ param: { id: String(id) } }));
export const updateUser = (id: number, json: AdminUserUpdate) => unwrap(api.admin.users[":id"].$put({ param: { id: String(id) }, json }));
export const deleteUser = (id: number) => unwrap(api.admin.users[":id"].$delete({ param: { id: String(id) } }));

/** The council (« Modèles »): members, synthesisers, « Tester » (docs/API.md, /api/admin/council). */
export const fetchCouncil = () => withToken(() => unwrap(api.admin.council.$get()));
export const addMember = (json: CouncilMemberAdd) => unwrap(api.admin.council.members.$post({ json }));
export const updateMember = (name: string, json: CouncilMemberPatch) => unwrap(api.admin.council.members[":name"].$patch({ param: { name }, json }));
export const testMember = (name: string) => unwrap(api.admin.council.members[":name"].test.$post({ param: { name } }));
export const saveSynthesisers = (names: string[]) => unwrap(api.admin.council.synthesisers.$put({ json: { names } }));
export const saveCouncilSettings = (json: { peer_review?: boolean; clarifier?: string | null; moderation_model?: string | null }) =>
  unwrap(api.admin.council.settings.$patch({ json }));
