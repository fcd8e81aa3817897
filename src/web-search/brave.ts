import { hitsOf, type SearchHit } from "./search-hits.ts";

type BraveResult = { url?: unknown; title?: unknown; description?: unknown };

/**
 * Brave Search's web search API (BRAVE_SEARCH_API_KEY), the hosted choice
 * for an operator without a SearXNG: `GET /res/v1/web/search?q=…&count=…`,
 * the key in `X-Subscription-Token`. Its descriptions carry <strong> marks
 * around the words found: removed.
 */
export async function searchBrave(engine: { url: string; key: string }, query: string, max: number, signal: AbortSignal): Promise<SearchHit[]> {
  const url = new URL(`${engine.url}/res/v1/web/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(max));
  const res = await fetch(url, { signal, headers: { accept: "application/json", "x-subscription-token": engine.key } });
  if (!res.ok) throw new Error(`Brave Search a répondu ${res.status}`);
  const body = (await res.json()) as { web?: { results?: BraveResult[] } };
  const results = Array.isArray(body.web?.results) ? body.web.results : [];
  return hitsOf(
    results.map((r) => ({ url: r.url, title: r.title, snippet: typeof r.description === "string" ? r.description.replace(/<\/?strong>/g, "") : "" })),
    max,
  );
}
