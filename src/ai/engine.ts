import { hostname } from "node:os";
import { frChat } from "../i18n/fr-chat.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { createGroupCommit, type GroupCommit } from "../db/group-commit.ts";
import { createRunWakeups, type RunWakeups } from "../db/run-wakeups.ts";
import { createRunTextRelay, type RunTextRelay } from "../db/run-text-relay.ts";
import type { Clock } from "../lib/clock.ts";
import { Availability } from "./availability.ts";
import { buildRegistry, type ModelDef } from "./registry.ts";
import type { ModelKey, ModerationClient, ProviderClient, ProviderKey } from "./types.ts";
import type { LiveRun } from "../chat/live-run.ts";
import { ModerationBreaker } from "./moderation-breaker.ts";
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
  /** Final-processing runs in progress in this process, by run id. */
  live: Map<number, LiveRun>;
  /** Conversations whose run is being claimed here: committed, not yet in `live` (the own-orphan sweep leaves them alone). */
  claiming: Set<number>;
  moderationBreaker: ModerationBreaker;
  /** SSE comment heartbeat: proxies close a silent upstream (nginx at 60 s). */
  heartbeatMs: number;
  /** Claims and final answers of concurrent runs share commits (see group-commit.ts). */
  writes: GroupCommit;
  /** This server process among those sharing the database: recorded with each run it carries out (hostname, pid, random). */
  serverId: string;
  /** What wakes a stream following a run of another server process (src/db/run-wakeups.ts). */
  wakeups: RunWakeups;
  /** The models' text pieces of a run, relayed live to the other servers (src/db/run-text-relay.ts). */
  textRelay: RunTextRelay;
};

export function createAi(config: Config, clock: Clock, db: Db): Ai {
  const { ai } = config;
  // The SDK-level timeout is a backstop only: the engine aborts at its own deadline (within the budget) first.
  const timeoutMs = Math.max(ai.timeoutMs, ai.budgetMs) + 5_000;
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
    availability: new Availability(configured, () => clock.now().getTime()),
    timeoutMs: ai.timeoutMs,
    live: new Map(),
    claiming: new Set(),
    moderationBreaker: new ModerationBreaker(() => clock.now().getTime()),
    heartbeatMs: 15_000,
    writes: createGroupCommit(db),
    serverId: `${hostname()}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
    wakeups: createRunWakeups(db),
    textRelay: createRunTextRelay(db),
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

const parisTime = new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" });
/** "14 h 02", as the answer names when a model became unavailable. */
function frenchTime(at: number): string {
  return parisTime.format(new Date(at)).replace(":", " h ");
}

/** The models final processing will not ask, each with the reason the answer names. */
export function skippedModels(ai: Ai, now: Date): Array<{ model: ModelDef; reason: string }> {
  return ai.models.flatMap((m) => {
    if (ai.availability.isAvailable(m.key)) return [];
    const h = ai.availability.get(m.key);
    if (!h.configured) return [{ model: m, reason: frChat.reason.skippedNoKey }];
    if (h.available && h.heldUntil > now.getTime()) return [{ model: m, reason: frChat.reason.skippedRateLimited(frenchTime(h.heldUntil)) }];
    return [{ model: m, reason: frChat.reason.skippedDown(frenchTime(h.unavailableSince ?? now.getTime())) }];
  });
}
