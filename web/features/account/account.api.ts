import { api, apiError } from "../../lib/api.ts";
import { saveResponse } from "../../lib/download.ts";

/** GET /auth/export: everything held about the user, saved as a JSON file. */
export async function downloadMyData(): Promise<void> {
  const res = await api.auth.export.$get();
  if (!res.ok) throw await apiError(res);
  await saveResponse(res, "unisson-mes-donnees.json");
}

/**
 * DELETE /auth/account: "code-sent" when two-factor applies and a code was
 * just mailed (202; ask for it and call again with it), "deleted" when done.
 */
export async function deleteAccountCall(password: string, code: string | null): Promise<"code-sent" | "deleted"> {
  const res = await api.auth.account.$delete({ json: code ? { password, code } : { password } });
  if (res.status === 202) return "code-sent";
  if (!res.ok) throw await apiError(res);
  return "deleted";
}
