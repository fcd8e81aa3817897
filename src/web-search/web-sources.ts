import type { Config } from "../config.ts";
import { addressGuard } from "./address-guard.ts";
import { PageReader } from "./page-reader.ts";
import type { PageText } from "./page-text.ts";
import { type Resolver, safeFetch, systemResolver } from "./safe-fetch.ts";
import { search } from "./search-engine.ts";
import type { SearchHit } from "./search-hits.ts";

export type WebSearchConfig = NonNullable<Config["webSearch"]>;

/** One numbered source, the same for every member of the council. */
export type WebSource = { n: number; url: string; title: string; domain: string; text: string };

/**
 * What one search gave and cost: the sources; each page fetched (true: its
 * text was read), counted per user (web_fetch); why the search itself failed.
 */
export type WebFinding = { sources: WebSource[]; fetched: boolean[]; error: string | null };

/** A page is read again after this: a question about today must not get yesterday's page for long. */
const CACHE_MS = 10 * 60_000;
const CACHE_MAX = 200;
/** Bytes of a page read at most (its HTML, before extraction). */
const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const CHARS_PER_TOKEN = 4;

type Read = PageText | null;

/**
 * The council's web search (issue 45): the question goes to the operator's
 * SearXNG, the top results' pages are read (safe-fetch.ts's guard, each page's
 * main text by Readability), cut to the token budget shared by all sources,
 * and numbered. A page that cannot be read keeps its search snippet.
 */
export class WebSearch {
  /** How host names are resolved before a page is fetched (a test may give its own). */
  resolve: Resolver = systemResolver;
  private readonly isAllowed: (address: string) => boolean;
  private readonly pages = new Map<string, { at: number; read: Read }>();
  private readonly reader = new PageReader();

  constructor(
    readonly config: WebSearchConfig,
    private readonly now: () => number = Date.now,
  ) {
    this.isAllowed = addressGuard(config.allowPrivate);
  }

  async find(query: string, signal: AbortSignal): Promise<WebFinding> {
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(this.config.timeoutMs)]);
    let hits: SearchHit[];
    try {
      hits = await search(this.config.engine, query, this.config.results, deadline);
    } catch (e) {
      return { sources: [], fetched: [], error: (e as Error).message };
    }
    const fetched: boolean[] = [];
    const reads = await Promise.all(
      hits.map(async (hit) => {
        const cached = this.cached(hit.url);
        if (cached !== undefined) return cached;
        const read = await this.read(hit.url, deadline);
        fetched.push(read !== null);
        // Only what was read is kept: a page down now may be up for the next question.
        if (read) this.remember(hit.url, read);
        return read;
      }),
    );
    const share = Math.floor((this.config.tokenBudget * CHARS_PER_TOKEN) / Math.max(1, hits.length));
    const sources = hits.flatMap((hit, i) => {
      const text = reads[i]?.text || hit.snippet;
      if (!text) return [];
      return [{ url: hit.url, title: hit.title || reads[i]?.title || new URL(hit.url).hostname, domain: domainOf(hit.url), text: cut(text, share) }];
    });
    return { sources: sources.map((s, i) => ({ n: i + 1, ...s })), fetched, error: null };
  }

  private async read(url: string, signal: AbortSignal): Promise<Read> {
    try {
      const page = await safeFetch(url, { isAllowed: this.isAllowed, resolve: this.resolve, signal, maxBytes: PAGE_MAX_BYTES, maxRedirects: MAX_REDIRECTS });
      return await this.reader.read({ html: page.body, contentType: page.contentType, url: page.url }, signal);
    } catch {
      // Refused, unreachable, too slow or unreadable: the source keeps its snippet, the answer goes on.
      return null;
    }
  }

  private cached(url: string): Read | undefined {
    const hit = this.pages.get(url);
    if (!hit || this.now() - hit.at > CACHE_MS) return undefined;
    return hit.read;
  }

  private remember(url: string, read: Read): void {
    this.pages.set(url, { at: this.now(), read });
    // The oldest first (a Map keeps insertion order).
    while (this.pages.size > CACHE_MAX) this.pages.delete(this.pages.keys().next().value!);
  }
}

export function domainOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, "");
}

/** At most `chars` characters, cut after a whole word. */
function cut(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const at = text.lastIndexOf(" ", chars);
  return `${text.slice(0, at > 0 ? at : chars)} […]`;
}
