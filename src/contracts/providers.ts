/** The provider kinds a council member may be: one official SDK each; `openai-compatible` is any chat-completions server (Ollama, vLLM, DeepSeek...). */
export const PROVIDER_KINDS = ["openai", "anthropic", "google", "mistral", "perplexity", "openai-compatible"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** How each provider kind is named: the public model list, /v1/models and the « Modèles » page (one list for both). */
export const PROVIDER_LABELS: Record<ProviderKind, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  mistral: "Mistral AI",
  perplexity: "Perplexity",
  "openai-compatible": "Compatible OpenAI",
};
