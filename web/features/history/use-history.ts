import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../../lib/api.ts";

export type ConversationSummary = {
  id: number;
  title: string | null;
  first_message: string | null;
  message_count: number;
  updated_at: string;
};

/** The saved conversations, loaded each time the history tab opens. */
export function useHistory() {
  const [items, setItems] = useState<ConversationSummary[] | null>(null);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async () => {
    setFailed(false);
    try {
      const r = await unwrap(api.unisson.history.$get());
      setItems(r.conversations as ConversationSummary[]);
      setFailed(false);
    } catch (err) {
      console.warn("history", err);
      // Loading, empty and failed are three states: a failure never reads as "no conversation".
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const remove = useCallback(async (id: number) => {
    await unwrap(api.unisson.conversation[":id"].$delete({ param: { id: String(id) } }));
    setItems((old) => old?.filter((c) => c.id !== id) ?? null);
  }, []);

  return { items, failed, reload, remove };
}

/** Title, or the first 50 characters of the first message (spec section 2). */
export function conversationTitle(c: ConversationSummary): string {
  if (c.title?.trim()) return c.title;
  const first = (c.first_message ?? "").trim();
  return first.length > 50 ? `${first.slice(0, 50)}…` : first;
}
