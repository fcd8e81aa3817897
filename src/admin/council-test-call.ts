import { callModel } from "../ai/model-call.ts";
import { PROBE_REQUEST } from "../ai/probe.job.ts";
import { listMembers } from "../council/council.store.ts";
import { resolveMember } from "../council/resolve-member.ts";
import { openStoredKey } from "../council/secret-box.ts";
import type { Deps } from "../deps.ts";
import { councilSecretKey } from "./council-effective.ts";
import { memberOrFail } from "./council-rules.ts";

/** « Tester » waits at most this long, whatever the member's own timeout: an operator is looking at the button. */
const TEST_TIMEOUT_MS = 20_000;
const FIRST_WORDS = 12;
const FIRST_CHARS = 120;

export type MemberTestResult = ({ ok: true; first_words: string } | { ok: false; error: string }) & { name: string; latency_ms: number };

function firstWords(text: string): string {
  const words = text.trim().split(/\s+/).slice(0, FIRST_WORDS).join(" ");
  return words.length > FIRST_CHARS ? `${words.slice(0, FIRST_CHARS - 1)}…` : words;
}

/**
 * « Tester » (panel) and `unisson council test`: one real call through the
 * member's provider adapter (its SDK client, its key and base URL), enabled
 * or not, with a timeout, the background probe's question. callModel logs it
 * as a probe (ai_calls) and feeds the breaker, so the member's status
 * everywhere is this result until the next probe. A provider's refusal is a
 * result in French, never an exception.
 */
export async function testCouncilMember(deps: Deps, name: string): Promise<MemberTestResult> {
  const row = memberOrFail(await listMembers(deps.db), name);
  const own = openStoredKey(() => councilSecretKey(deps.config), row.apiKeyEnc);
  const { enabled: _enabled, clientSpec, baseUrl: _baseUrl, keyProblem, ...model } = resolveMember(row, deps.config, own);
  // A key this server cannot open, or an *_API_KEY meant for another address: no call at all (the French text says why).
  if (keyProblem !== null) return { name: row.name, latency_ms: 0, ok: false, error: keyProblem };
  const client = model.modelId && clientSpec ? deps.ai.council.clientFor(clientSpec) : null;
  const outcome = await callModel(deps, { ...model, client }, PROBE_REQUEST, { purpose: "probe", timeoutMs: Math.min(TEST_TIMEOUT_MS, model.timeoutMs) });
  const base = { name: row.name, latency_ms: outcome.latencyMs };
  return outcome.ok ? { ...base, ok: true, first_words: firstWords(outcome.text) } : { ...base, ok: false, error: outcome.reason };
}
