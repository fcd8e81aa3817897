import type Anthropic from "@anthropic-ai/sdk";
import type { Completion, ProviderClient } from "../ai.types.ts";

/** Claude Opus 4.1 and Claude 3 Haiku; SDK retries off, the engine owns deadline and retry. */
export function createAnthropicClient(opts: { apiKey: string; baseUrl?: string; timeoutMs: number }): ProviderClient {
  // Loaded at the first call, not at every start of the executable (~45 ms; docs/BENCHMARKS.md, cold start).
  let sdk: Promise<Anthropic> | undefined;
  const client = () =>
    (sdk ??= import("@anthropic-ai/sdk").then(({ default: Sdk }) => new Sdk({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 0, timeout: opts.timeoutMs })));
  return {
    provider: "anthropic",
    async complete(modelId, req, signal): Promise<Completion> {
      const res = await (await client()).messages.create(
        { model: modelId, max_tokens: req.maxTokens, system: req.system, messages: req.messages },
        { signal },
      );
      const text = res.content
        .map((block) => (block.type === "text" ? block.text : ""))
        .join("");
      return { text, tokensIn: res.usage?.input_tokens ?? null, tokensOut: res.usage?.output_tokens ?? null, citations: [] };
    },
  };
}
