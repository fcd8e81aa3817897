import { availableModels } from "../ai/engine.ts";
import { shownCouncil } from "../council/council-runtime.ts";
import { schemaState } from "../db/schema-guard.ts";
import { databaseWritable } from "../db/health.ts";
import type { Deps } from "../deps.ts";
import { holdsLease } from "./lease.ts";

/** Final processing needs at least two answers to consolidate. */
const MIN_MODELS_READY = 2;

export type Readiness = { ready: boolean; checks: { database_writable: boolean; migrations_current: boolean; lease_held: boolean; models_available: number } };

/**
 * What /api/health/ready answers (for a load balancer or an orchestrator),
 * unlike the cheap /api/health: can this process serve a real answer now?
 */
export async function readiness(deps: Deps): Promise<Readiness> {
  const { db, ai, clock, lease } = deps;
  const checks = {
    database_writable: await databaseWritable(db),
    migrations_current: (await schemaState(db)).status === "current",
    // The single-server lease is SQLite's: on PostgreSQL several servers share the database and none holds it.
    lease_held: deps.config.databaseUrl ? true : await holdsLease(db, lease, clock.now()),
    models_available: availableModels(ai, await shownCouncil(deps)).length,
  };
  const ready = checks.database_writable && checks.migrations_current && checks.lease_held && checks.models_available >= MIN_MODELS_READY;
  return { ready, checks };
}
