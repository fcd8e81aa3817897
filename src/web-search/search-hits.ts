/** One result of the search service, as the council's sources start. */
export type SearchHit = { url: string; title: string; snippet: string };

type RawHit = { url?: unknown; title?: unknown; snippet?: unknown };

/** The first `max` results with an http(s) URL, each URL once; a missing title is the host's name. */
export function hitsOf(raw: readonly RawHit[], max: number): SearchHit[] {
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const r of raw) {
    const link = typeof r.url === "string" ? URL.parse(r.url) : null;
    if (!link || !/^https?:$/.test(link.protocol) || seen.has(link.href)) continue;
    seen.add(link.href);
    const title = typeof r.title === "string" && r.title.trim() ? r.title.trim() : link.hostname;
    hits.push({ url: link.href, title, snippet: typeof r.snippet === "string" ? r.snippet.trim() : "" });
    if (hits.length >= max) break;
  }
  return hits;
}
