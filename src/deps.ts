import type Stripe from "stripe";
import type { Ai } from "./ai/engine.ts";
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { UserRow } from "./db/schema/index.ts";
import type { Clock } from "./lib/clock.ts";
import type { Logger } from "./lib/log.ts";
import type { Mailer } from "./lib/mail/mailer.ts";
import type { OpenSlots } from "./lib/open-slots.ts";
import type { RateLimitStore } from "./lib/rate-limit.ts";
import type { Lease } from "./system/lease.ts";
import type { Metrics } from "./system/metrics.ts";

/**
 * Everything a request handler, job or CLI command may use, built once by
 * src/server.ts's buildDeps (or by test/helpers for each test). No module
 * keeps state of its own, but for a few caches keyed by a part of Deps and
 * what is one per process (stdout, zod's locale, constants loaded once): each
 * says why in a `Module state:` comment, which a test requires
 * (test/server/code/module-state.test.ts).
 */
export interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
  /** The real Stripe SDK, or null without STRIPE_SECRET_KEY (payments answer 402). */
  stripe: Stripe | null;
  /** The council (members from the database, their SDK clients), cached availability, final-processing runs in flight. */
  ai: Ai;
  /** Prometheus counters of this process (GET /metrics). */
  metrics: Metrics;
  /** The server's hold on the database (src/system/lease.ts); unset in the CLI and most tests. */
  lease?: Lease;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    /** Set by requireUser. */
    user: UserRow;
    sessionId: number;
    /** Rate-limit counters of this app (createApp makes one per app). */
    rateLimits: RateLimitStore;
    /** What is open now in this app: live event streams and exports (src/lib/open-slots.ts). */
    slots: { streams: OpenSlots; exports: OpenSlots };
  };
};
