import type { Mistral } from "@mistralai/mistralai";
import type { Completion, CompletionRequest, ProviderClient, StopReason } from "../types.ts";
import { dataUrl, turnsWithImages } from "./image-parts.ts";

/** The messages, the pictures joined to the last user message as `image_url` chunks holding a data URL (Mistral's vision format). */
function messagesOf(req: CompletionRequest) {
  return turnsWithImages(req, (text, images) => [
    { type: "text" as const, text },
    ...images.map((i) => ({ type: "image_url" as const, imageUrl: dataUrl(i) })),
  ]);
}

function stopOf(reason: string | null | undefined): StopReason {
  if (reason === "length" || reason === "model_length") return "length";
  if (reason == null) return "incomplete";
  return reason === "stop" ? "end" : "other";
}

/** Mistral Large, streamed. The SDK appends `/v1/chat/completions` to `serverURL`; its retries stay off. */
export function createMistralClient(opts: { apiKey: string; baseUrl?: string; timeoutMs: number }): ProviderClient {
  // Loading this SDK took ~150 ms of every start of the executable (docs/BENCHMARKS.md, cold start): load it at the first call.
  let sdk: Promise<Mistral> | undefined;
  const client = () =>
    (sdk ??= import("@mistralai/mistralai").then(
      ({ Mistral }) => new Mistral({ apiKey: opts.apiKey, serverURL: opts.baseUrl, retryConfig: { strategy: "none" }, timeoutMs: opts.timeoutMs }),
    ));
  return {
    provider: "mistral",
    async stream(modelId, req, signal, onText): Promise<Completion> {
      const events = await (await client()).chat.stream(
        { model: modelId, maxTokens: req.maxTokens, messages: [{ role: "system" as const, content: req.system }, ...messagesOf(req)] },
        { signal, retries: { strategy: "none" } },
      );
      let text = "";
      let reason: string | null | undefined;
      let tokensIn: number | null = null;
      let tokensOut: number | null = null;
      for await (const ev of events) {
        const choice = ev.data.choices[0];
        const content = choice?.delta?.content;
        const delta = typeof content === "string" ? content : (content ?? []).map((c) => ("text" in c ? c.text : "")).join("");
        if (delta) {
          text += delta;
          onText(delta);
        }
        if (choice?.finishReason) reason = choice.finishReason;
        if (ev.data.usage) {
          tokensIn = ev.data.usage.promptTokens ?? tokensIn;
          tokensOut = ev.data.usage.completionTokens ?? tokensOut;
        }
      }
      return { text, tokensIn, tokensOut, citations: [], stop: stopOf(reason) };
    },
  };
}
