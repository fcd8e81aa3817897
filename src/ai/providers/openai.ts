import OpenAI from "openai";
import type { Completion, CompletionRequest, ModerationClient, ModerationVerdict, ProviderClient } from "../ai.types.ts";

export type OpenAiOptions = { apiKey: string; baseUrl?: string; timeoutMs: number };

/**
 * The openai SDK retries 429/5xx twice and waits 10 minutes by default: both
 * are turned off here because the engine owns the deadline and its one retry.
 */
export function openAiSdk(opts: OpenAiOptions): OpenAI {
  return new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 0, timeout: opts.timeoutMs });
}

/**
 * Chat completions request shared by OpenAI and OpenAI-compatible servers
 * (Perplexity, Ollama, vLLM); returns the raw answer too, for provider extras.
 */
export async function openAiComplete(sdk: OpenAI, modelId: string, req: CompletionRequest, signal: AbortSignal) {
  const res = await sdk.chat.completions.create(
    {
      model: modelId,
      // max_tokens rather than max_completion_tokens: every OpenAI-compatible server understands it.
      max_tokens: req.maxTokens,
      messages: [{ role: "system", content: req.system }, ...req.messages],
    },
    { signal },
  );
  const completion: Completion = {
    text: res.choices[0]?.message?.content ?? "",
    tokensIn: res.usage?.prompt_tokens ?? null,
    tokensOut: res.usage?.completion_tokens ?? null,
    citations: [],
  };
  return { completion, raw: res };
}

export function createOpenAiClient(opts: OpenAiOptions): ProviderClient & ModerationClient {
  const sdk = openAiSdk(opts);
  return {
    provider: "openai",
    async complete(modelId, req, signal): Promise<Completion> {
      return (await openAiComplete(sdk, modelId, req, signal)).completion;
    },
    async moderate(text, signal): Promise<ModerationVerdict> {
      const res = await sdk.moderations.create({ model: "omni-moderation-latest", input: text }, { signal });
      const result = res.results[0];
      if (!result) return { flagged: false, categories: [] };
      const categories = Object.entries(result.categories)
        .filter(([, v]) => v === true)
        .map(([k]) => k);
      return { flagged: result.flagged, categories };
    },
  };
}
