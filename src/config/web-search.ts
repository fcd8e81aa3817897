import type { z } from "zod";
import { count, ms, onOff, optionalText, optionalUrl, privateAllowance } from "./env-fields.ts";

/** The web search variables (issue 45, src/web-search/): the operator's SearXNG or a Brave key, and how pages are read. */
export const webSearchEnv = {
  WEB_SEARCH_URL: optionalUrl,
  BRAVE_SEARCH_API_KEY: optionalText,
  BRAVE_SEARCH_BASE_URL: optionalUrl,
  WEB_SEARCH_ENABLED: onOff,
  WEB_SEARCH_DEFAULT: onOff,
  WEB_SEARCH_RESULTS: count(1, 10).default(5),
  WEB_SEARCH_TIMEOUT_MS: ms(500, 60_000).default(8_000),
  WEB_SEARCH_TOKEN_BUDGET: count(500, 100_000).default(6_000),
  WEB_FETCH_ALLOW_PRIVATE: privateAllowance,
};

type WebSearchEnv = z.infer<z.ZodObject<typeof webSearchEnv>>;

/** Web search: null when no search service (SearXNG or a Brave Search key) is configured, or the operator turned it off. */
export function webSearchConfig(e: WebSearchEnv) {
  if (!(e.WEB_SEARCH_URL || e.BRAVE_SEARCH_API_KEY) || e.WEB_SEARCH_ENABLED === false) return null;
  return {
    /** The operator's SearXNG when set, else Brave Search's API (src/web-search/search-engine.ts). */
    engine: e.WEB_SEARCH_URL
      ? { kind: "searxng" as const, url: e.WEB_SEARCH_URL.replace(/\/+$/, "") }
      : { kind: "brave" as const, url: (e.BRAVE_SEARCH_BASE_URL ?? "https://api.search.brave.com").replace(/\/+$/, ""), key: e.BRAVE_SEARCH_API_KEY! },
    /** Whether a user who never chose has it on. */
    byDefault: e.WEB_SEARCH_DEFAULT ?? false,
    results: e.WEB_SEARCH_RESULTS,
    /** The search and the reading of the pages together, before the models are asked. */
    timeoutMs: e.WEB_SEARCH_TIMEOUT_MS,
    /** Tokens of page text given to the models, all sources together. */
    tokenBudget: e.WEB_SEARCH_TOKEN_BUDGET,
    /** true: any address; a list: those ranges besides public ones; false: public addresses only (docs/SECURITY.md). */
    allowPrivate: e.WEB_FETCH_ALLOW_PRIVATE,
  };
}
