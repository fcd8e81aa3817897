import { frChat } from "../i18n/fr-chat.ts";

/** Probe cadence: a healthy model is re-checked every 5 minutes; a failing one sooner, with backoff. */
const PROBE_EVERY_MS = 5 * 60_000;
const PROBE_BACKOFF_MS = [30_000, 60_000, 120_000, 240_000] as const;
/** The breaker opens after this many availability failures inside the window, across all requests. */
const BREAKER_FAILURES = 3;
const BREAKER_WINDOW_MS = 60_000;
/** A 429 without `retry-after` holds the model back this long. */
const DEFAULT_HOLD_MS = 30_000;

export type ModelHealth = {
  configured: boolean;
  /** Not configured because its key cannot be used (unreadable, or withheld from its address): the operator must act, so the answer names it. */
  keyUnusable: boolean;
  /** Closed circuit: true. A model with a key starts closed (available). */
  available: boolean;
  /** Times of the recent availability failures (the sliding window). */
  recentFailures: number[];
  /** A 429 holds the model back until then, without opening the circuit. */
  heldUntil: number;
  consecutiveFailures: number;
  lastError: string | null;
  /** When the circuit opened (or the hold started): the answer names it ("indisponible depuis 14 h 02"). */
  unavailableSince: number | null;
  checkedAt: number | null;
  nextProbeAt: number;
};

/** What a failed call tells the breaker. `source` "probe" is a health check: it counts in full. */
export type FailureSignal = { status: number | null; reason: string; retryAfterMs: number | null; source: "answer" | "probe" };

const UNKNOWN: ModelHealth = Object.freeze({
  configured: false,
  keyUnusable: false,
  available: false,
  recentFailures: [],
  heldUntil: 0,
  consecutiveFailures: 0,
  lastError: frChat.reason.noKey,
  unavailableSince: null,
  checkedAt: null,
  nextProbeAt: Number.POSITIVE_INFINITY,
});

/**
 * The availability that /status, /models and final processing read: a
 * circuit breaker in plain memory, fed by answer calls and probes only (never
 * by a synthesis, a clarification or a request's own 4xx). A key refused
 * (401/403) or a failed probe opens it at once; a 429 holds the model back
 * until its `retry-after`; other failures open it once BREAKER_FAILURES of
 * them fall inside BREAKER_WINDOW_MS. The probe job closes it again.
 */
export class Availability {
  readonly #health = new Map<string, ModelHealth & { signature: string }>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * Follows the council after each reload: a new member, or one whose model,
   * key or base URL changed (its `signature`), starts afresh (available when
   * it has a key, probed at once); the others keep their state. Members gone
   * from the council are forgotten.
   */
  sync(members: ReadonlyArray<{ key: string; configured: boolean; keyUnusable: boolean; signature: string }>): void {
    const keep = new Set(members.map((m) => m.key));
    for (const key of this.#health.keys()) if (!keep.has(key)) this.#health.delete(key);
    const now = this.#now();
    for (const { key, configured, keyUnusable, signature } of members) {
      if (this.#health.get(key)?.signature === signature) continue;
      this.#health.set(key, {
        signature,
        configured,
        keyUnusable,
        available: configured,
        recentFailures: [],
        heldUntil: 0,
        consecutiveFailures: 0,
        lastError: configured ? null : frChat.reason.noKey,
        unavailableSince: null,
        checkedAt: null,
        nextProbeAt: now,
      });
    }
  }

  /** A member the council has not synced yet counts as one without a key. */
  get(key: string): ModelHealth {
    return this.#health.get(key) ?? UNKNOWN;
  }

  isAvailable(key: string): boolean {
    const h = this.#health.get(key);
    return !!h && h.available && h.heldUntil <= this.#now();
  }

  recordSuccess(key: string, now: number): void {
    const h = this.#health.get(key);
    if (!h?.configured) return;
    Object.assign(h, {
      available: true,
      recentFailures: [],
      heldUntil: 0,
      consecutiveFailures: 0,
      lastError: null,
      unavailableSince: null,
      checkedAt: now,
      nextProbeAt: now + PROBE_EVERY_MS,
    });
  }

  recordFailure(key: string, now: number, signal: FailureSignal): void {
    const h = this.#health.get(key);
    if (!h?.configured) return;
    const { status } = signal;
    // A request the provider refused for its own content (400, 404, 413...) says nothing about the model.
    if (status !== null && status >= 400 && status < 500 && ![401, 403, 429].includes(status) && signal.source === "answer") return;
    h.lastError = signal.reason;
    h.checkedAt = now;
    if (status === 429) {
      h.heldUntil = Math.max(h.heldUntil, now + (signal.retryAfterMs ?? DEFAULT_HOLD_MS));
      h.unavailableSince ??= now;
      return;
    }
    h.recentFailures = [...h.recentFailures.filter((t) => t > now - BREAKER_WINDOW_MS), now];
    const open = signal.source === "probe" || status === 401 || status === 403 || h.recentFailures.length >= BREAKER_FAILURES;
    if (!open) return;
    const failures = h.consecutiveFailures + 1;
    const wait = PROBE_BACKOFF_MS[Math.min(failures, PROBE_BACKOFF_MS.length) - 1]!;
    if (h.available) h.unavailableSince = now;
    Object.assign(h, { available: false, consecutiveFailures: failures, nextProbeAt: now + wait });
  }

  dueForProbe(now: number): string[] {
    return [...this.#health.entries()].filter(([, h]) => h.configured && h.nextProbeAt <= now).map(([k]) => k);
  }
}
