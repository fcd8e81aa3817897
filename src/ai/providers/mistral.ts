import type { Mistral } from "@mistralai/mistralai";
import type { Completion, ProviderClient } from "../ai.types.ts";

/** Mistral Large. The SDK appends `/v1/chat/completions` to `serverURL`; its retries stay off. */
export function createMistralClient(opts: { apiKey: string; baseUrl?: string; timeoutMs: number }): ProviderClient {
  // Loading this SDK took ~150 ms of every start of the executable (docs/BENCHMARKS.md, cold start): load it at the first call.
  let sdk: Promise<Mistral> | undefined;
  const client = () =>
    (sdk ??= import("@mistralai/mistralai").then(
      ({ Mistral }) => new Mistral({ apiKey: opts.apiKey, serverURL: opts.baseUrl, retryConfig: { strategy: "none" }, timeoutMs: opts.timeoutMs }),
    ));
  return {
    provider: "mistral",
    async complete(modelId, req, signal): Promise<Completion> {
      const res = await (await client()).chat.complete(
        {
          model: modelId,
          maxTokens: req.maxTokens,
          messages: [{ role: "system", content: req.system }, ...req.messages],
        },
        { signal, retries: { strategy: "none" } },
      );
      const content = res.choices[0]?.message?.content;
      const text = typeof content === "string" ? content : (content ?? []).map((c) => ("text" in c ? c.text : "")).join("");
      return { text, tokensIn: res.usage?.promptTokens ?? null, tokensOut: res.usage?.completionTokens ?? null, citations: [] };
    },
  };
}
