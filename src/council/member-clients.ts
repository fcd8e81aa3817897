import { createAnthropicClient } from "../ai/providers/anthropic.ts";
import { createGoogleClient } from "../ai/providers/google.ts";
import { createMistralClient } from "../ai/providers/mistral.ts";
import { createOpenAiClient } from "../ai/providers/openai.ts";
import { createOpenAiCompatibleClient } from "../ai/providers/openai-compatible.ts";
import { createPerplexityClient } from "../ai/providers/perplexity.ts";
import type { ProviderClient, ProviderKey } from "../ai/types.ts";

/** What an SDK client is made of: members sharing all three share one client. */
export type ClientSpec = { provider: ProviderKey; apiKey: string | undefined; baseUrl: string | undefined };

/**
 * The SDK clients of the council's members, made once per (provider, key,
 * base URL) and kept across council reloads: a reload for a rename makes no
 * new connection pool. `timeoutMs` is the SDK's backstop only (the engine
 * aborts at its own deadline first).
 */
export function createClientCache(timeoutMs: number) {
  const clients = new Map<string, ProviderClient>();
  return (spec: ClientSpec): ProviderClient | null => {
    const id = JSON.stringify([spec.provider, spec.apiKey ?? null, spec.baseUrl ?? null]);
    const known = clients.get(id);
    if (known) return known;
    const made = makeClient(spec, timeoutMs);
    if (made) clients.set(id, made);
    return made;
  };
}

function makeClient({ provider, apiKey, baseUrl }: ClientSpec, timeoutMs: number): ProviderClient | null {
  if (provider === "openai-compatible") return baseUrl ? createOpenAiCompatibleClient({ apiKey, baseUrl, timeoutMs }) : null;
  if (!apiKey) return null;
  switch (provider) {
    case "openai":
      return createOpenAiClient({ apiKey, baseUrl, timeoutMs });
    case "anthropic":
      return createAnthropicClient({ apiKey, baseUrl, timeoutMs });
    case "google":
      return createGoogleClient({ apiKey, baseUrl });
    case "mistral":
      return createMistralClient({ apiKey, baseUrl, timeoutMs });
    case "perplexity":
      return createPerplexityClient({ apiKey, baseUrl: baseUrl ?? "https://api.perplexity.ai", timeoutMs });
  }
}
