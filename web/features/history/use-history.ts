import { useCallback, useEffect, useRef, useState } from "react";
import type { ConversationSummary } from "../../lib/api-types.ts";
import { api, unwrap } from "../../lib/api.ts";

/** The first page is small so the tab opens at once; later pages are larger, fetched while scrolling. */
export const FIRST_PAGE = 50;
export const NEXT_PAGE = 100;
/** Typing pauses this long before a search goes out. */
export const SEARCH_DEBOUNCE_MS = 300;

type State = {
  /** null until the first answer. */
  items: ConversationSummary[] | null;
  next: string | null;
  /** The search the items answer ("" = the plain list). */
  q: string;
  loadingMore: boolean;
  failed: boolean;
};

/**
 * The saved conversations, a page at a time (GET /history?limit&cursor), or
 * the best matches of a search (?q=), typed text debounced. A late answer to
 * an older request is dropped, so fast typing never shows stale results.
 */
export function useHistory() {
  const [query, setQuery] = useState("");
  const [state, setState] = useState<State>({ items: null, next: null, q: "", loadingMore: false, failed: false });
  const request = useRef(0);
  // loadMore reads the latest state without being re-created on every page.
  const stateRef = useRef(state);
  stateRef.current = state;

  const loadFirst = useCallback(async (q: string) => {
    const mine = ++request.current;
    try {
      const r = await unwrap(api.unisson.history.$get({ query: q ? { q, limit: String(NEXT_PAGE) } : { limit: String(FIRST_PAGE) } }));
      if (mine !== request.current) return;
      setState({ items: r.conversations, next: r.next_cursor, q, loadingMore: false, failed: false });
    } catch (err) {
      if (mine !== request.current) return;
      console.warn("history", err);
      setState((s) => ({ ...s, items: s.items ?? [], q, loadingMore: false, failed: true }));
    }
  }, []);

  useEffect(() => {
    const q = query.trim();
    // The plain list at once (tab opened, search cleared); a search after a pause in typing.
    const timer = setTimeout(() => void loadFirst(q), q ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [query, loadFirst]);

  const loadMore = useCallback(async () => {
    const { next, loadingMore, q } = stateRef.current;
    if (!next || loadingMore) return;
    const mine = request.current;
    setState((s) => ({ ...s, loadingMore: true }));
    try {
      const r = await unwrap(api.unisson.history.$get({ query: { limit: String(NEXT_PAGE), cursor: next } }));
      if (mine !== request.current) return;
      setState((s) => {
        const seen = new Set(s.items?.map((c) => c.id));
        const fresh = r.conversations.filter((c) => !seen.has(c.id));
        return { ...s, items: [...(s.items ?? []), ...fresh], next: r.next_cursor, q, loadingMore: false, failed: false };
      });
    } catch (err) {
      if (mine !== request.current) return;
      console.warn("history", err);
      setState((s) => ({ ...s, loadingMore: false, failed: true }));
    }
  }, []);

  const remove = useCallback(async (id: number) => {
    await unwrap(api.unisson.conversation[":id"].$delete({ param: { id: String(id) } }));
    setState((s) => ({ ...s, items: s.items?.filter((c) => c.id !== id) ?? null }));
  }, []);

  /** A title changed by the rename dialog: the list shows it without a reload. */
  const renamed = useCallback((id: number, title: string) => {
    setState((s) => ({ ...s, items: s.items?.map((c) => (c.id === id ? { ...c, title } : c)) ?? null }));
  }, []);

  const retry = useCallback(
    () => (stateRef.current.next && stateRef.current.items?.length ? loadMore() : loadFirst(query.trim())),
    [loadMore, loadFirst, query],
  );

  return { ...state, query, setQuery, loadMore, remove, renamed, retry, searching: state.q !== "" };
}

/** Title, or the first 50 characters of the first message (docs/PRODUCT.md#history). */
export function conversationTitle(c: ConversationSummary): string {
  if (c.title?.trim()) return c.title;
  const first = (c.first_message ?? "").trim();
  return first.length > 50 ? `${first.slice(0, 50)}…` : first;
}
