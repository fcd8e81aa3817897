import type { ProviderClient } from "../types.ts";
import { openAiSdk, openAiStream } from "./openai.ts";

/**
 * Any server that speaks OpenAI's chat completions (Ollama, vLLM, llama.cpp,
 * DeepSeek, Grok, OpenRouter...), through the official openai SDK with the
 * member's base URL. A local server often wants no key: the SDK needs one,
 * so a placeholder is sent, which such servers ignore.
 */
export function createOpenAiCompatibleClient(opts: { apiKey?: string; baseUrl: string; timeoutMs: number }): ProviderClient {
  const sdk = openAiSdk({ apiKey: opts.apiKey ?? "sans-cle", baseUrl: opts.baseUrl, timeoutMs: opts.timeoutMs });
  return {
    provider: "openai-compatible",
    stream: (modelId, req, signal, onText) => openAiStream(sdk, modelId, req, signal, onText),
  };
}
