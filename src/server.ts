import { createAi } from "./ai/ai.engine.ts";
import { createApp } from "./app.ts";
import { createStripe } from "./billing/stripe.client.ts";
import { recoverInterruptedRuns } from "./chat/chat.recovery.ts";
import type { Config } from "./config.ts";
import { openDb } from "./db/client.ts";
import { runMigrations } from "./db/migrate.ts";
import type { Deps } from "./deps.ts";
import { allJobs } from "./jobs/index.ts";
import { startJobs } from "./jobs/scheduler.ts";
import { systemClock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/log.ts";
import { createMailer } from "./lib/mail/index.ts";
import { warmCommonPasswords } from "./auth/auth.passwords.ts";
import { ensureAdmin } from "./users/admin-bootstrap.ts";

/** How long in-flight requests may take to finish on SIGTERM before connections are closed. */
const DRAIN_MS = 10_000;

/** Builds the real dependencies from config (the tests build their own); the CLI passes a logger that keeps stdout for its output. */
export function buildDeps(config: Config, log: Logger = createLogger(config.logLevel)): Deps {
  const db = openDb(config.databasePath);
  return { db, config, clock: systemClock, log, mailer: createMailer(config, db, systemClock, log), stripe: createStripe(config), ai: createAi(config, systemClock, db) };
}

/** config -> openDb -> migrate -> createApp -> Bun.serve -> startJobs; SIGTERM/SIGINT stop cleanly. */
export async function startServer(config: Config) {
  const deps = buildDeps(config);
  const applied = runMigrations(deps.db);
  if (applied) deps.log.info("migrations applied", { count: applied });
  recoverInterruptedRuns(deps);
  await ensureAdmin(deps);
  const app = createApp(deps);
  const server = Bun.serve({ port: config.port, hostname: config.host, fetch: app.fetch, idleTimeout: 255 });
  const jobs = startJobs(deps, allJobs);
  // Off the start-up path: the first registration then finds the common-password list ready.
  setTimeout(warmCommonPasswords, 1_000).unref();
  deps.log.info("Unisson prêt", { url: `http://${config.host}:${server.port}`, public_url: config.publicUrl, database: config.databasePath });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info("arrêt demandé", { signal });
    const drained = server.stop(false);
    const timedOut = await Promise.race([drained.then(() => false), Bun.sleep(DRAIN_MS).then(() => true)]);
    if (timedOut) await server.stop(true);
    await jobs.stop();
    deps.db.$client.close();
    deps.log.info("arrêté");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return { server, deps, shutdown };
}
