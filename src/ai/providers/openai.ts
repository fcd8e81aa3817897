import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { dataUrl, turnsWithImages } from "./image-parts.ts";
import type { Completion, CompletionRequest, ModerationClient, ModerationVerdict, OnText, ProviderClient, StopReason } from "../types.ts";

export type OpenAiOptions = { apiKey: string; baseUrl?: string; timeoutMs: number };

/**
 * The openai SDK retries 429/5xx twice and waits 10 minutes by default: both
 * are turned off here because the engine owns the deadline and its retry.
 */
export function openAiSdk(opts: OpenAiOptions): OpenAI {
  return new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 0, timeout: opts.timeoutMs });
}

function stopOf(finish: string | null | undefined, refused: boolean): StopReason {
  if (refused || finish === "content_filter") return "refusal";
  if (finish === "length") return "length";
  if (finish == null) return "incomplete";
  return finish === "stop" ? "end" : "other";
}

/** The chat messages, the pictures joined to the last user message as `image_url` parts holding a data URL (OpenAI's vision format). */
function chatMessages(req: CompletionRequest): ChatCompletionMessageParam[] {
  const turns = turnsWithImages(req, (text, images) => [
    { type: "text" as const, text },
    ...images.map((i) => ({ type: "image_url" as const, image_url: { url: dataUrl(i) } })),
  ]);
  return [{ role: "system", content: req.system }, ...(turns as ChatCompletionMessageParam[])];
}

/**
 * Streamed chat completions, shared by OpenAI and OpenAI-compatible servers
 * (Perplexity, Ollama, vLLM). `onChunk` sees each raw chunk for provider extras.
 */
export async function openAiStream(
  sdk: OpenAI,
  modelId: string,
  req: CompletionRequest,
  signal: AbortSignal,
  onText: OnText,
  onChunk: (chunk: unknown) => void = () => {},
): Promise<Completion> {
  const stream = await sdk.chat.completions.create(
    {
      model: modelId,
      // max_tokens rather than max_completion_tokens: every OpenAI-compatible server understands it.
      max_tokens: req.maxTokens,
      messages: chatMessages(req),
      stream: true,
      stream_options: { include_usage: true },
    },
    { signal },
  );
  let text = "";
  let refusal = "";
  let finish: string | null = null;
  let tokensIn: number | null = null;
  let tokensOut: number | null = null;
  for await (const chunk of stream) {
    onChunk(chunk);
    const choice = chunk.choices[0];
    const delta = choice?.delta?.content;
    if (delta) {
      text += delta;
      onText(delta);
    }
    if (choice?.delta?.refusal) refusal += choice.delta.refusal;
    if (choice?.finish_reason) finish = choice.finish_reason;
    if (chunk.usage) {
      tokensIn = chunk.usage.prompt_tokens ?? null;
      tokensOut = chunk.usage.completion_tokens ?? null;
    }
  }
  return { text, tokensIn, tokensOut, citations: [], stop: stopOf(finish, refusal.length > 0) };
}

export function createOpenAiClient(opts: OpenAiOptions): ProviderClient & ModerationClient {
  const sdk = openAiSdk(opts);
  return {
    provider: "openai",
    stream: (modelId, req, signal, onText) => openAiStream(sdk, modelId, req, signal, onText),
    async moderate(text, signal, model): Promise<ModerationVerdict> {
      const res = await sdk.moderations.create({ model, input: text }, { signal });
      const result = res.results[0];
      if (!result) return { flagged: false, categories: [] };
      const categories = Object.entries(result.categories)
        .filter(([, v]) => v === true)
        .map(([k]) => k);
      return { flagged: result.flagged, categories };
    },
  };
}
