import type { ModelKey } from "./ai.types.ts";

/** Probe cadence: a healthy model is re-checked every 5 minutes; a failing one sooner, with backoff. */
export const PROBE_EVERY_MS = 5 * 60_000;
export const PROBE_BACKOFF_MS = [30_000, 60_000, 120_000, 240_000] as const;

export type ModelHealth = {
  configured: boolean;
  /** Closed circuit: true. A model with a key starts closed (available) until a call or probe fails. */
  available: boolean;
  consecutiveFailures: number;
  lastError: string | null;
  checkedAt: number | null;
  nextProbeAt: number;
};

/**
 * The cached availability that /status and /models read: plain memory,
 * updated by real calls and by the probe job, never by a request of its own.
 */
export class Availability {
  readonly #health = new Map<ModelKey, ModelHealth>();

  constructor(configured: Record<ModelKey, boolean>, now: number) {
    for (const [key, isConfigured] of Object.entries(configured) as Array<[ModelKey, boolean]>) {
      this.#health.set(key, {
        configured: isConfigured,
        available: isConfigured,
        consecutiveFailures: 0,
        lastError: isConfigured ? null : "clé API non configurée",
        checkedAt: null,
        nextProbeAt: now,
      });
    }
  }

  get(key: ModelKey): ModelHealth {
    return this.#health.get(key)!;
  }

  isAvailable(key: ModelKey): boolean {
    return this.#health.get(key)?.available ?? false;
  }

  recordSuccess(key: ModelKey, now: number): void {
    const h = this.#health.get(key);
    if (!h?.configured) return;
    Object.assign(h, { available: true, consecutiveFailures: 0, lastError: null, checkedAt: now, nextProbeAt: now + PROBE_EVERY_MS });
  }

  /** One failed call (after its retry) or probe opens the circuit; the probe job closes it again. */
  recordFailure(key: ModelKey, now: number, reason: string): void {
    const h = this.#health.get(key);
    if (!h?.configured) return;
    const failures = h.consecutiveFailures + 1;
    const wait = PROBE_BACKOFF_MS[Math.min(failures, PROBE_BACKOFF_MS.length) - 1]!;
    Object.assign(h, { available: false, consecutiveFailures: failures, lastError: reason, checkedAt: now, nextProbeAt: now + wait });
  }

  dueForProbe(now: number): ModelKey[] {
    return [...this.#health.entries()].filter(([, h]) => h.configured && h.nextProbeAt <= now).map(([k]) => k);
  }
}
