/** The provider families, one adapter (official SDK) each. */
export type ProviderKey = "openai" | "anthropic" | "google" | "mistral" | "perplexity";

/** The six models of the product (spec section 9), by stable internal key. */
export type ModelKey = "gpt4" | "claudeHaiku" | "claudeOpus" | "geminiPro" | "mistralLarge" | "sonarPro";

export type ChatTurn = { role: "user" | "assistant"; content: string };

/** One completion request, the same for every provider; adapters translate it to their wire format. */
export type CompletionRequest = {
  system: string;
  messages: ChatTurn[];
  maxTokens: number;
};

export type Completion = {
  text: string;
  tokensIn: number | null;
  tokensOut: number | null;
  /** URLs the model really cited (Sonar Pro's `citations`); empty for the others. */
  citations: string[];
};

/** What an adapter does; `signal` abandons the HTTP request at the engine's deadline. */
export interface ProviderClient {
  readonly provider: ProviderKey;
  complete(modelId: string, req: CompletionRequest, signal: AbortSignal): Promise<Completion>;
}

export type ModerationVerdict = { flagged: boolean; categories: string[] };

export interface ModerationClient {
  moderate(text: string, signal: AbortSignal): Promise<ModerationVerdict>;
}
