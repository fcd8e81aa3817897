import { hostname } from "node:os";
import { frChat } from "../i18n/fr-chat.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { createGroupCommit, type GroupCommit } from "../db/group-commit.ts";
import { createRunWakeups, type RunWakeups } from "../db/run-wakeups.ts";
import { createRunTextRelay, type RunTextRelay } from "../db/run-text-relay.ts";
import type { Clock } from "../lib/clock.ts";
import { Availability } from "./availability.ts";
import type { ModelDef } from "./registry.ts";
import type { ModerationClient } from "./types.ts";
import type { LiveRun } from "../chat/live-run.ts";
import { ModerationBreaker } from "./moderation-breaker.ts";
import { UpstreamCalls } from "./upstream-calls.ts";
import { createOpenAiClient } from "./providers/openai.ts";
import { type Council, type CouncilRuntime, createCouncilRuntime } from "../council/council-runtime.ts";
import { WebSearch } from "../web-search/web-sources.ts";

/**
 * The `ai` dependency: the council (members read from the database, with
 * their SDK clients: src/council/council-runtime.ts), their cached availability, and the final-processing runs in
 * flight in this process (so concurrent /process calls share one answer).
 */
export type Ai = {
  /** The council of this process: a run takes `currentCouncil(deps)` once at its start. */
  council: CouncilRuntime;
  moderation: ModerationClient | null;
  availability: Availability;
  timeoutMs: number;
  /** Final-processing runs in progress in this process, by run id. */
  live: Map<number, LiveRun>;
  /** Conversations whose run is being claimed here: committed, not yet in `live` (the own-orphan sweep leaves them alone). */
  claiming: Set<number>;
  moderationBreaker: ModerationBreaker;
  /** SSE comment heartbeat of the live-answer and /v1 streams: proxies close a silent upstream (nginx at 60 s). */
  heartbeatMs: number;
  /** Claims and final answers of concurrent runs share commits (see group-commit.ts). */
  writes: GroupCommit;
  /** This server process among those sharing the database: recorded with each run it carries out (hostname, pid, random). */
  serverId: string;
  /** What wakes a stream following a run of another server process (src/db/run-wakeups.ts). */
  wakeups: RunWakeups;
  /** The models' text pieces of a run, relayed live to the other servers (src/db/run-text-relay.ts). */
  textRelay: RunTextRelay;
  /** Model calls in flight, against the HTTP client's cap (upstream-calls.ts). */
  upstream: UpstreamCalls;
  /** The council's web search (issue 45); null when WEB_SEARCH_URL is unset or WEB_SEARCH_ENABLED=false. */
  web: WebSearch | null;
};

export function createAi(config: Config, clock: Clock, db: Db): Ai {
  const { ai } = config;
  // The SDK-level timeout is a backstop only: the engine aborts at its own deadline (within the budget) first.
  const timeoutMs = Math.max(ai.timeoutMs, ai.budgetMs) + 5_000;
  // Moderation stays on OPENAI_API_KEY (docs/DECISIONS.md): it is not a member of the council.
  const moderation = ai.openai.apiKey ? createOpenAiClient({ apiKey: ai.openai.apiKey, baseUrl: ai.openai.baseUrl, timeoutMs }) : null;
  const availability = new Availability(() => clock.now().getTime());
  return {
    council: createCouncilRuntime(config, db, availability, timeoutMs),
    moderation,
    availability,
    timeoutMs: ai.timeoutMs,
    live: new Map(),
    claiming: new Set(),
    moderationBreaker: new ModerationBreaker(() => clock.now().getTime()),
    heartbeatMs: 15_000,
    writes: createGroupCommit(db),
    serverId: `${hostname()}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
    wakeups: createRunWakeups(db),
    textRelay: createRunTextRelay(db),
    upstream: new UpstreamCalls(config.httpClientCap),
    web: config.webSearch ? new WebSearch(config.webSearch, () => clock.now().getTime()) : null,
  };
}

/** The run's members the breaker lets through now. */
export function availableModels(ai: Ai, council: Council): ModelDef[] {
  return council.members.filter((m) => ai.availability.isAvailable(m.key));
}

/** What /status and /models answer: the shown council (src/council/council-runtime.ts) and the breaker's memory, no upstream call. */
export function aiStatus(ai: Ai, council: Council) {
  const ai_status = council.members.map((m) => ({ name: m.name, available: ai.availability.isAvailable(m.key) }));
  // Web search (issue 45): whether the page offers it, and whether it starts on for a user who never chose.
  const web_search = { available: ai.web !== null, default: ai.web?.config.byDefault ?? false };
  return { ai_status, system_operational: ai_status.filter((s) => s.available).length >= 2, web_search };
}

const parisTime = new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" });
/** "14 h 02", as the answer names when a model became unavailable. */
function frenchTime(at: number): string {
  return parisTime.format(new Date(at)).replace(":", " h ");
}

/** The models final processing will not ask, each with the reason the answer names. */
export function skippedModels(ai: Ai, council: Council, now: Date): Array<{ model: ModelDef; reason: string }> {
  return council.members.flatMap((m) => {
    if (ai.availability.isAvailable(m.key)) return [];
    const h = ai.availability.get(m.key);
    if (!h.configured) return [{ model: m, reason: h.keyUnusable ? frChat.reason.skippedKeyUnusable : frChat.reason.skippedNoKey }];
    if (h.available && h.heldUntil > now.getTime()) return [{ model: m, reason: frChat.reason.skippedRateLimited(frenchTime(h.heldUntil)) }];
    return [{ model: m, reason: frChat.reason.skippedDown(frenchTime(h.unavailableSince ?? now.getTime())) }];
  });
}
