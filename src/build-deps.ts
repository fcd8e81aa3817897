import { createAi } from "./ai/engine.ts";
import { createStripe } from "./billing/stripe-client.ts";
import type { Config } from "./config.ts";
import { connectDatabase } from "./db/open.ts";
import type { Deps } from "./deps.ts";
import { systemClock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/log.ts";
import { createMailer } from "./lib/mail/index.ts";
import { createMetrics } from "./system/metrics.ts";

/**
 * Builds the real dependencies from config (the tests build their own), the
 * database reached or refused in one French line (src/db/open.ts); the
 * CLI passes a logger that keeps stdout for its output, and a smaller
 * PostgreSQL pool (`pool`).
 */
export async function buildDeps(
  config: Config,
  log: Logger = createLogger(config.logLevel, undefined, config.logFormat),
  busyTimeoutMs?: number,
  pool?: { max: number },
): Promise<Deps> {
  const db = await connectDatabase(config, busyTimeoutMs, pool);
  return {
    db,
    config,
    clock: systemClock,
    log,
    mailer: createMailer(config, db, systemClock, log),
    stripe: createStripe(config),
    ai: createAi(config, systemClock, db),
    metrics: createMetrics(),
  };
}
