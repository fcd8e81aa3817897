import { searchBrave } from "./brave.ts";
import type { SearchHit } from "./search-hits.ts";
import { searchSearxng } from "./searxng.ts";

/** The search service the operator configured: their SearXNG (WEB_SEARCH_URL) or, without one, Brave Search's API (a key). */
export type SearchEngine = { kind: "searxng"; url: string } | { kind: "brave"; url: string; key: string };

export function search(engine: SearchEngine, query: string, max: number, signal: AbortSignal): Promise<SearchHit[]> {
  return engine.kind === "searxng" ? searchSearxng(engine.url, query, max, signal) : searchBrave(engine, query, max, signal);
}
