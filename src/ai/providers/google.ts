import { GoogleGenerativeAI } from "@google/generative-ai";
import type { Completion, ProviderClient } from "../ai.types.ts";

/**
 * Gemini Pro. The SDK appends `/v1beta/models/...` to `baseUrl` itself. No
 * `timeout` option here: the SDK never clears that timer; the engine's signal
 * abandons the request instead.
 */
export function createGoogleClient(opts: { apiKey: string; baseUrl?: string }): ProviderClient {
  const sdk = new GoogleGenerativeAI(opts.apiKey);
  return {
    provider: "google",
    async complete(modelId, req, signal): Promise<Completion> {
      const model = sdk.getGenerativeModel(
        { model: modelId, systemInstruction: req.system },
        opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined,
      );
      const res = await model.generateContent(
        {
          contents: req.messages.map((m) => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] })),
          generationConfig: { maxOutputTokens: req.maxTokens },
        },
        { signal },
      );
      const parts = res.response.candidates?.[0]?.content?.parts ?? [];
      const usage = res.response.usageMetadata;
      return {
        text: parts.map((p) => p.text ?? "").join(""),
        tokensIn: usage?.promptTokenCount ?? null,
        tokensOut: usage?.candidatesTokenCount ?? null,
        citations: [],
      };
    },
  };
}
