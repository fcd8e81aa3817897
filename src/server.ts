import { createApp } from "./app.ts";
import { recoverInterruptedRuns } from "./chat/recovery.ts";
import { startRunLiveness } from "./chat/run-liveness.ts";
import type { Config } from "./config.ts";
import { closeDb, SERVER_BUSY_TIMEOUT_MS } from "./db/client.ts";
import { startCheckpointer } from "./db/checkpointer.ts";
import { migrateWithBackup, newerRefusal, schemaState } from "./db/schema-guard.ts";
import { buildDeps } from "./build-deps.ts";
import { allJobs } from "./jobs/index.ts";
import { startJobs } from "./jobs/scheduler.ts";
import { backupJobs } from "./system/backup.job.ts";
import { setupSummary } from "./system/startup.ts";
import { listen } from "./system/listen.ts";
import { currentCouncil } from "./council/council-runtime.ts";
import { loadSecretKey } from "./council/secret-box.ts";
import { acquireLease, hasLeaseTable, HEARTBEAT_MS, type Lease, releaseLease, renewLease } from "./system/lease.ts";
import { localUrl, recordedDatabase, removeServerRecord, writeServerRecord } from "./system/server-record.ts";
import { warmCommonPasswords } from "./auth/passwords.ts";
import { ensureAdmin } from "./users/admin-bootstrap.ts";

/** How long in-flight requests may take to finish on SIGTERM before connections are closed. */
const DRAIN_MS = 10_000;

/**
 * config -> openDb -> schema check -> lease -> backup and migrate -> recover -> createApp -> Bun.serve ->
 * server record (data folder, for `unisson healthcheck`) -> startJobs; SIGTERM/SIGINT stop cleanly. The lease comes before anything
 * that writes: a second server on this database stops here, having touched nothing.
 */
export async function startServer(config: Config) {
  // PostgreSQL's servers must share the key that opens the council's API keys: without SECRET_KEY, refused before anything starts.
  if (config.databaseUrl) loadSecretKey(config);
  const deps = await buildDeps(config, undefined, SERVER_BUSY_TIMEOUT_MS);
  const url = `http://${config.host}:${config.port}`;
  let lease: Lease | undefined;
  try {
    const state = await schemaState(deps.db);
    if (state.status === "newer") throw newerRefusal(config.databaseLabel, state);
    // The single-server lease is SQLite's (one file, one server); on PostgreSQL several servers share the database.
    const single = !config.databaseUrl;
    // A database from before the lease has no lease table yet: it is taken right after its migration.
    if (single && (await hasLeaseTable(deps.db))) lease = await acquireLease(deps.db, deps.clock.now(), url);
    const { applied, backup, notice } = await migrateWithBackup(deps.db, config.databaseLabel, config.dataDir);
    // PostgreSQL without pg_dump: the server migrates anyway (the slim image has none), saying how to back up next time.
    if (notice) deps.log.warn(notice);
    if (applied) deps.log.info("migrations applied", { count: applied, backup });
    if (single) lease ??= await acquireLease(deps.db, deps.clock.now(), url);
  } catch (e) {
    try {
      if (lease) await releaseLease(deps.db, lease);
    } catch {
      // The database itself is what failed; the original error is the one to show.
    }
    await closeDb(deps.db);
    throw e;
  }
  deps.lease = lease;
  // After the migrations (their large writes checkpoint as SQLite always does): from here on, off the request thread.
  const checkpointer = startCheckpointer(deps.db, deps.log);
  await recoverInterruptedRuns(deps);
  await ensureAdmin(deps);
  const app = createApp(deps);
  let server: ReturnType<typeof Bun.serve> | undefined;
  try {
    server = listen({ port: config.port, hostname: config.host, fetch: app.fetch, idleTimeout: 255 });
    writeServerRecord(config.dataDir, {
      url: localUrl(config.host, server.port!),
      database: recordedDatabase(config),
      startedAt: deps.clock.now().toISOString(),
    });
  } catch (e) {
    await server?.stop(true);
    await checkpointer.stop();
    if (lease) await releaseLease(deps.db, lease);
    await closeDb(deps.db);
    throw e;
  }
  const jobs = startJobs(deps, [...allJobs, ...backupJobs(deps)]);
  const runs = startRunLiveness(deps);
  // Off the start-up path: the first registration then finds the common-password list ready.
  setTimeout(warmCommonPasswords, 1_000).unref();
  deps.log.info("Unisson prêt", {
    url: `http://${config.host}:${server.port}`,
    public_url: config.publicUrl,
    database: config.databaseLabel,
    server: deps.ai.serverId,
  });
  deps.log.info("configuration", setupSummary(deps, await currentCouncil(deps)));

  const heartbeat = setInterval(async () => {
    if (!lease) return;
    try {
      if (await renewLease(deps.db, lease, deps.clock.now())) return;
      deps.log.error("bail de la base perdu : un autre serveur l'a pris, arrêt");
      void shutdown("lease");
    } catch (e) {
      // A lock held elsewhere for a moment: the next beat retries, well within the lease's lifetime.
      deps.log.warn("lease heartbeat failed", { error: e });
    }
  }, HEARTBEAT_MS);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info("arrêt demandé", { signal });
    const drained = server.stop(false);
    const timedOut = await Promise.race([drained.then(() => false), Bun.sleep(DRAIN_MS).then(() => true)]);
    if (timedOut) await server.stop(true);
    await jobs.stop();
    await runs.stop();
    clearInterval(heartbeat);
    removeServerRecord(config.dataDir);
    if (signal !== "lease" && lease) await releaseLease(deps.db, lease);
    await checkpointer.stop();
    await closeDb(deps.db);
    deps.log.info("arrêté");
    // Losing the lease is a failure the supervisor should see (and restart on).
    process.exit(signal === "lease" ? 1 : 0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return { server, deps, shutdown };
}
