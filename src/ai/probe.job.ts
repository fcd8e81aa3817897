import type { Deps } from "../deps.ts";
import type { Job } from "../jobs/job.ts";
import { shownCouncil } from "../council/council-runtime.ts";
import { callModel } from "./model-call.ts";

/** A probe is a real, tiny completion: it checks the key, the model id and the route in one call. */
export const PROBE_REQUEST = { system: "Réponds par un seul mot.", messages: [{ role: "user" as const, content: "ping" }], maxTokens: 8 };
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Re-checks every configured member of the council whose probe is due (healthy ones every 5
 * minutes, failing ones with backoff), in parallel; callModel feeds the result
 * to the circuit, so /status stays a memory read.
 */
export async function probeModels(deps: Deps) {
  // The council first: a member it has just added is known to the breaker (due at once) only once it is read.
  const council = await shownCouncil(deps);
  const due = deps.ai.availability.dueForProbe(deps.clock.now().getTime());
  const models = council.members.filter((m) => due.includes(m.key));
  const timeoutMs = Math.min(PROBE_TIMEOUT_MS, deps.ai.timeoutMs);
  const results = await Promise.all(models.map(async (m) => await callModel(deps, m, PROBE_REQUEST, { purpose: "probe", timeoutMs })));
  return Object.fromEntries(models.map((m, i) => [m.name, results[i]!.ok ? "ok" : "ko"]));
}

/** Ticks often but only calls the models that are due, so backoff after a failure is honoured. */
export const aiProbeJob: Job = { name: "ai-probe", everyMs: 15_000, runAtStart: true, run: probeModels };
