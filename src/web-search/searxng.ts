/** One result of the search service, as the council's sources start. */
export type SearchHit = { url: string; title: string; snippet: string };

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
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const r of Array.isArray(body.results) ? body.results : []) {
    const link = typeof r.url === "string" ? URL.parse(r.url) : null;
    if (!link || !/^https?:$/.test(link.protocol) || seen.has(link.href)) continue;
    seen.add(link.href);
    hits.push({
      url: link.href,
      title: typeof r.title === "string" && r.title.trim() ? r.title.trim() : link.hostname,
      snippet: typeof r.content === "string" ? r.content.trim() : "",
    });
    if (hits.length >= max) break;
  }
  return hits;
}
