import type Anthropic from "@anthropic-ai/sdk";
import type { Completion, CompletionRequest, ProviderClient, StopReason } from "../types.ts";
import { turnsWithImages } from "./image-parts.ts";

/** The messages, the pictures put before the text of the last user message as base64 `image` blocks (Anthropic's advice: image first). */
function messagesOf(req: CompletionRequest): Anthropic.MessageParam[] {
  return turnsWithImages(req, (text, images) => [
    ...images.map((i) => ({
      type: "image" as const,
      source: { type: "base64" as const, media_type: i.mime as "image/png" | "image/jpeg" | "image/webp" | "image/gif", data: i.base64 },
    })),
    { type: "text" as const, text },
  ]);
}

function stopOf(reason: string | null): StopReason {
  if (reason === "refusal") return "refusal";
  if (reason === "max_tokens") return "length";
  if (reason === null) return "incomplete";
  return reason === "end_turn" || reason === "stop_sequence" ? "end" : "other";
}

/** Claude Opus 4.1 and Claude 3 Haiku, streamed; SDK retries off, the engine owns deadline and retry. */
export function createAnthropicClient(opts: { apiKey: string; baseUrl?: string; timeoutMs: number }): ProviderClient {
  // Loaded at the first call, not at every start of the executable (~45 ms; docs/BENCHMARKS.md, cold start).
  let sdk: Promise<Anthropic> | undefined;
  const client = () =>
    (sdk ??= import("@anthropic-ai/sdk").then(
      ({ default: Sdk }) => new Sdk({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 0, timeout: opts.timeoutMs }),
    ));
  return {
    provider: "anthropic",
    async stream(modelId, req, signal, onText): Promise<Completion> {
      const events = await (await client()).messages.create(
        { model: modelId, max_tokens: req.maxTokens, system: req.system, messages: messagesOf(req), stream: true },
        { signal },
      );
      let text = "";
      let reason: string | null = null;
      let tokensIn: number | null = null;
      let tokensOut: number | null = null;
      for await (const ev of events) {
        if (ev.type === "message_start") tokensIn = ev.message.usage?.input_tokens ?? null;
        else if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") {
          text += ev.delta.text;
          onText(ev.delta.text);
        } else if (ev.type === "message_delta") {
          reason = ev.delta.stop_reason ?? reason;
          tokensOut = ev.usage?.output_tokens ?? tokensOut;
        }
      }
      return { text, tokensIn, tokensOut, citations: [], stop: stopOf(reason) };
    },
  };
}
