import type { ProviderClient } from "../types.ts";
import { openAiSdk, openAiStream } from "./openai.ts";

/** Perplexity adds these to the OpenAI chat completion chunks; the SDK passes them through untouched. */
type PerplexityExtras = { citations?: unknown; search_results?: Array<{ url?: unknown }> };

/** Sonar Pro through the openai SDK against Perplexity's OpenAI-compatible API, keeping its citations. */
export function createPerplexityClient(opts: { apiKey: string; baseUrl: string; timeoutMs: number }): ProviderClient {
  const sdk = openAiSdk(opts);
  return {
    provider: "perplexity",
    async stream(modelId, req, signal, onText) {
      let citations: string[] = [];
      const completion = await openAiStream(sdk, modelId, req, signal, onText, (chunk) => {
        const found = citationsOf(chunk as PerplexityExtras);
        if (found.length > 0) citations = found;
      });
      return { ...completion, citations };
    },
  };
}

/** Only http(s) URLs, deduplicated: they end up as links under "Sources". */
function citationsOf(res: PerplexityExtras): string[] {
  const raw: unknown[] = Array.isArray(res.citations) ? res.citations : (res.search_results ?? []).map((r) => r?.url);
  const urls = raw.filter((u): u is string => typeof u === "string" && /^https?:\/\/\S+$/.test(u));
  return [...new Set(urls)];
}
