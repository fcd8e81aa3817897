import { api, apiError, unwrap } from "../../lib/api.ts";
import { saveResponse } from "../../lib/download.ts";

/** GET /unisson/models: the models and their status (also started by index.html before the scripts load: EARLY_CALLS, web/lib/early.ts). */
export const fetchModels = () => unwrap(api.unisson.models.$get());

/** GET /conversation/{id}/export: the conversation saved as a Markdown or JSON file. */
export async function downloadConversation(id: number, format: "md" | "json"): Promise<void> {
  const res = await api.unisson.conversation[":id"].export.$get({ param: { id: String(id) }, query: { format } });
  if (!res.ok) throw await apiError(res);
  await saveResponse(res, `unisson-conversation-${id}.${format}`);
}
