import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { createGroupCommit, type GroupCommit } from "../db/group-commit.ts";
import type { Clock } from "../lib/clock.ts";
import { Availability } from "./ai.availability.ts";
import { buildRegistry, type ModelDef } from "./ai.registry.ts";
import type { ModelKey, ModerationClient, ProviderClient, ProviderKey } from "./ai.types.ts";
import { createAnthropicClient } from "./providers/anthropic.ts";
import { createGoogleClient } from "./providers/google.ts";
import { createMistralClient } from "./providers/mistral.ts";
import { createOpenAiClient } from "./providers/openai.ts";
import { createPerplexityClient } from "./providers/perplexity.ts";

/**
 * The `ai` dependency: the six models, one SDK client per configured
 * provider, their cached availability, and the final-processing runs in
 * flight in this process (so concurrent /process calls share one answer).
 */
export type Ai = {
  models: readonly ModelDef[];
  clients: Partial<Record<ProviderKey, ProviderClient>>;
  moderation: ModerationClient | null;
  availability: Availability;
  timeoutMs: number;
  inflight: Map<number, Promise<unknown>>;
  /** Claims and final answers of concurrent runs share commits (see group-commit.ts). */
  writes: GroupCommit;
};

export function createAi(config: Config, clock: Clock, db: Db): Ai {
  const { ai } = config;
  // The SDK-level timeout is a backstop only: the engine aborts at its own deadline first.
  const timeoutMs = ai.timeoutMs + 5_000;
  const openai = ai.openai.apiKey ? createOpenAiClient({ apiKey: ai.openai.apiKey, baseUrl: ai.openai.baseUrl, timeoutMs }) : undefined;
  const clients: Ai["clients"] = {
    openai,
    anthropic: ai.anthropic.apiKey ? createAnthropicClient({ apiKey: ai.anthropic.apiKey, baseUrl: ai.anthropic.baseUrl, timeoutMs }) : undefined,
    google: ai.google.apiKey ? createGoogleClient({ apiKey: ai.google.apiKey, baseUrl: ai.google.baseUrl }) : undefined,
    mistral: ai.mistral.apiKey ? createMistralClient({ apiKey: ai.mistral.apiKey, baseUrl: ai.mistral.baseUrl, timeoutMs }) : undefined,
    perplexity: ai.perplexity.apiKey ? createPerplexityClient({ apiKey: ai.perplexity.apiKey, baseUrl: ai.perplexity.baseUrl, timeoutMs }) : undefined,
  };
  const models = buildRegistry(config);
  const configured = Object.fromEntries(models.map((m) => [m.key, clients[m.provider] !== undefined])) as Record<ModelKey, boolean>;
  return {
    models,
    clients,
    moderation: openai ?? null,
    availability: new Availability(configured, clock.now().getTime()),
    timeoutMs: ai.timeoutMs,
    inflight: new Map(),
    writes: createGroupCommit(db),
  };
}

export function availableModels(ai: Ai): ModelDef[] {
  return ai.models.filter((m) => ai.availability.isAvailable(m.key));
}

/** What /status and /models answer: memory only, no upstream call, no database. */
export function aiStatus(ai: Ai) {
  const ai_status = ai.models.map((m) => ({ name: m.name, available: ai.availability.isAvailable(m.key) }));
  return { ai_status, system_operational: ai_status.filter((s) => s.available).length >= 2 };
}
