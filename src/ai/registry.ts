import type { Config } from "../config.ts";
import type { ModelKey, ProviderKey } from "./types.ts";

export type ModelDef = {
  key: ModelKey;
  /** Display name, as the spec lists it. */
  name: string;
  provider: ProviderKey;
  /** Provider name as the model list shows it. */
  providerLabel: string;
  /** French specialty label shown next to the model. */
  specialty: string;
  /** Synthesis order (DECISIONS.md, AI models): 1 writes first. */
  priority: number;
  /** Reads images (issue 33): sent the pictures in its SDK's format; the others get the text only and are named in the answer. */
  vision: boolean;
  /** Provider model id, from MODEL_<KEY> (config). */
  modelId: string;
};

type StaticDef = Omit<ModelDef, "modelId">;

/** Display order is docs/PRODUCT.md#models; priority is DECISIONS.md's. */
const MODELS: readonly StaticDef[] = [
  { key: "gpt4", name: "GPT-4", provider: "openai", providerLabel: "OpenAI", specialty: "Raisonnement polyvalent", priority: 2, vision: true },
  {
    key: "claudeHaiku",
    name: "Claude 3 Haiku",
    provider: "anthropic",
    providerLabel: "Anthropic",
    specialty: "Réponses rapides et concises",
    priority: 6,
    vision: true,
  },
  {
    key: "claudeOpus",
    name: "Claude Opus 4.1",
    provider: "anthropic",
    providerLabel: "Anthropic",
    specialty: "Analyse approfondie et nuancée",
    priority: 1,
    vision: true,
  },
  {
    key: "geminiPro",
    name: "Gemini Pro",
    provider: "google",
    providerLabel: "Google",
    specialty: "Connaissances étendues et multimodales",
    priority: 3,
    vision: true,
  },
  {
    key: "mistralLarge",
    name: "Mistral Large",
    provider: "mistral",
    providerLabel: "Mistral AI",
    specialty: "Expertise francophone et européenne",
    priority: 4,
    vision: false,
  },
  {
    key: "sonarPro",
    name: "Sonar Pro",
    provider: "perplexity",
    providerLabel: "Perplexity",
    specialty: "Recherche web en temps réel, avec sources",
    priority: 5,
    vision: false,
  },
];

/** The static defs until the council is data (issue 35); AI_VISION overrides which models see images. */
export function buildRegistry(config: Config): readonly ModelDef[] {
  const vision = config.ai.vision;
  return MODELS.map((m) => ({ ...m, modelId: config.ai.models[m.key], vision: vision ? vision.includes(m.key) : m.vision }));
}

export function byPriority<T extends { priority: number }>(models: readonly T[]): T[] {
  return [...models].sort((a, b) => a.priority - b.priority);
}
