import { hitsOf, type SearchHit } from "./search-hits.ts";

type SearxngResult = { url?: unknown; title?: unknown; content?: unknown };

/**
 * The operator's SearXNG (WEB_SEARCH_URL), through its JSON API
 * (`GET /search?q=…&format=json`, the `json` format enabled in its
 * settings.yml). The service is the operator's own: it may be on the local
 * network, so this request does not go through the page fetches' guard.
 */
export async function searchSearxng(baseUrl: string, query: string, max: number, signal: AbortSignal): Promise<SearchHit[]> {
  const url = new URL(`${baseUrl}/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const res = await fetch(url, { signal, headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`SearXNG a répondu ${res.status}`);
  const body = (await res.json()) as { results?: SearxngResult[] };
  return hitsOf(
    (Array.isArray(body.results) ? body.results : []).map((r) => ({ url: r.url, title: r.title, snippet: r.content })),
    max,
  );
}
