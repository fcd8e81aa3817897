import type { ProviderKind } from "../db/schema/council.ts";

/** The provider families, one adapter (official SDK) each; members name theirs (council_members.provider). */
export type ProviderKey = ProviderKind;

export type ChatTurn = { role: "user" | "assistant"; content: string };

/** A picture given with the question (issue 33), already resized: base64 of the bytes, and their MIME type. */
export type ImageInput = { mime: string; base64: string };

/** One completion request, the same for every provider; adapters translate it to their wire format. */
export type CompletionRequest = {
  system: string;
  messages: ChatTurn[];
  maxTokens: number;
  /** Pictures that go with the last user message, for a model whose `vision` is true (the engine leaves them out for the others). */
  images?: ImageInput[];
};

/**
 * Why the model stopped, read from each SDK's own field (finish_reason,
 * stop_reason, finishReason): "length" is a text cut at the token limit,
 * "refusal" a native refusal signal (OpenAI `refusal`, Anthropic
 * `stop_reason: refusal`, Gemini SAFETY/PROHIBITED_CONTENT/BLOCKLIST);
 * "incomplete" a stream that ended without any finish marker (cut or aborted:
 * the SDKs end an aborted stream quietly).
 */
export type StopReason = "end" | "length" | "refusal" | "incomplete" | "other";

export type Completion = {
  text: string;
  tokensIn: number | null;
  tokensOut: number | null;
  /** URLs the model really cited (Sonar Pro's `citations`); empty for the others. */
  citations: string[];
  stop: StopReason;
  /** The text declines one part of the question and answers the rest (src/ai/refusal.ts): kept, and marked for the notices. */
  partialRefusal?: boolean;
};

/** Called with each piece of text as the provider streams it. */
export type OnText = (delta: string) => void;

/**
 * What an adapter does: one streamed completion through the official SDK.
 * `signal` abandons the HTTP request (engine deadline, first-token timeout,
 * soft deadline); `onText` sees the text as it is written.
 */
export interface ProviderClient {
  readonly provider: ProviderKey;
  stream(modelId: string, req: CompletionRequest, signal: AbortSignal, onText: OnText): Promise<Completion>;
}

export type ModerationVerdict = { flagged: boolean; categories: string[] };

export interface ModerationClient {
  moderate(text: string, signal: AbortSignal, model: string): Promise<ModerationVerdict>;
}
