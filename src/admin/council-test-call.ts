import { insertAiCall } from "../ai/ai-calls.queries.ts";
import { type AbortCause, classifyError } from "../ai/provider-errors.ts";
import { createAnthropicClient } from "../ai/providers/anthropic.ts";
import { createGoogleClient } from "../ai/providers/google.ts";
import { createMistralClient } from "../ai/providers/mistral.ts";
import { createOpenAiClient } from "../ai/providers/openai.ts";
import { createPerplexityClient } from "../ai/providers/perplexity.ts";
import type { ProviderClient } from "../ai/types.ts";
import { listMembers } from "../council/council.store.ts";
import type { CouncilMemberRow, ProviderKind } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { frChat } from "../i18n/fr-chat.ts";
import { effectiveMember } from "./council-effective.ts";
import { memberOrFail } from "./council-rules.ts";

/** The background probe's own question (src/ai/probe.job.ts): one word back, a handful of tokens. */
const TEST_REQUEST = { system: "Réponds par un seul mot.", messages: [{ role: "user" as const, content: "ping" }], maxTokens: 8 };
/** « Tester » waits at most this long, whatever the member's own timeout: an operator is looking at the button. */
const TEST_TIMEOUT_MS = 20_000;
const FIRST_WORDS = 12;
const FIRST_CHARS = 120;

type Outcome = { ok: true; latency_ms: number; first_words: string } | { ok: false; latency_ms: number; error: string };
export type MemberTestResult = Outcome & { name: string };

/**
 * The member's provider adapter (the official SDK), built from what the
 * member really uses: `openai-compatible` is the openai SDK on the member's
 * base URL. A local server (Ollama, llama.cpp) asks no key; the SDK insists
 * on one, so it gets a word that authenticates nothing.
 */
function adapterFor(provider: ProviderKind, apiKey: string | undefined, baseUrl: string | null, timeoutMs: number): ProviderClient | null {
  const base = baseUrl ?? undefined;
  if (provider === "openai-compatible") return createOpenAiClient({ apiKey: apiKey ?? "sans-cle", baseUrl: base, timeoutMs });
  if (!apiKey) return null;
  if (provider === "openai") return createOpenAiClient({ apiKey, baseUrl: base, timeoutMs });
  if (provider === "anthropic") return createAnthropicClient({ apiKey, baseUrl: base, timeoutMs });
  if (provider === "google") return createGoogleClient({ apiKey, baseUrl: base });
  if (provider === "mistral") return createMistralClient({ apiKey, baseUrl: base, timeoutMs });
  return createPerplexityClient({ apiKey, baseUrl: base ?? "https://api.perplexity.ai", timeoutMs });
}

function firstWords(text: string): string {
  const words = text.trim().split(/\s+/).slice(0, FIRST_WORDS).join(" ");
  return words.length > FIRST_CHARS ? `${words.slice(0, FIRST_CHARS - 1)}…` : words;
}

async function call(deps: Deps, row: CouncilMemberRow): Promise<Outcome> {
  const m = effectiveMember(deps.config, row);
  const timeoutMs = Math.min(TEST_TIMEOUT_MS, m.timeoutMs);
  const adapter = adapterFor(row.provider, m.apiKey, m.baseUrl, timeoutMs + 1_000);
  if (!adapter) return { ok: false, latency_ms: 0, error: frChat.reason.noKey };
  const ctl = new AbortController();
  let cause: AbortCause | null = null;
  const timer = setTimeout(() => {
    cause = "deadline";
    ctl.abort();
  }, timeoutMs);
  const started = performance.now();
  try {
    const res = await adapter.stream(m.model, TEST_REQUEST, ctl.signal, () => {});
    const latency = Math.round(performance.now() - started);
    if (cause) return { ok: false, latency_ms: latency, error: classifyError(null, cause).reason };
    const words = firstWords(res.text);
    return words ? { ok: true, latency_ms: latency, first_words: words } : { ok: false, latency_ms: latency, error: frChat.reason.empty };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), error: classifyError(err, cause).reason };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * « Tester » (panel) and `unisson council test`: one real call through the
 * member's provider, enabled or not, with a timeout. It is logged as a probe
 * (ai_calls), so the member's status everywhere is this result until the
 * next probe. A provider's refusal is a result in French, never an exception.
 */
export async function testCouncilMember(deps: Deps, name: string): Promise<MemberTestResult> {
  const row = memberOrFail(await listMembers(deps.db), name);
  const result = await call(deps, row);
  await insertAiCall(deps.db, {
    userId: null,
    conversationId: null,
    model: row.name,
    provider: row.provider,
    purpose: "probe",
    outcome: result.ok ? "ok" : "error",
    httpStatus: null,
    error: result.ok ? null : result.error,
    latencyMs: result.latency_ms,
    tokensIn: null,
    tokensOut: null,
    costEur: null,
    createdAt: deps.clock.now(),
  });
  return { name: row.name, ...result };
}
