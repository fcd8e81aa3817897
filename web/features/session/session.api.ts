import { api, unwrap } from "../../lib/api.ts";

/** GET /auth/me: the signed-in user (also started by index.html before the scripts load: EARLY_CALLS, web/lib/early.ts). */
export const fetchMe = () => unwrap(api.auth.me.$get());

/** POST /auth/logout: revokes this session on the server; its answer does not matter to the page. */
export async function logoutCall(): Promise<void> {
  await api.auth.logout.$post();
}
