import { availableModels } from "../ai/engine.ts";
import { schemaState } from "../db/schema-guard.ts";
import type { Deps } from "../deps.ts";
import { holdsLease } from "./lease.ts";

/** Final processing needs at least two answers to consolidate. */
const MIN_MODELS_READY = 2;

export type Readiness = { ready: boolean; checks: { database_writable: boolean; migrations_current: boolean; lease_held: boolean; models_available: number } };

/**
 * What /api/health/ready answers (for a load balancer or an orchestrator),
 * unlike the cheap /api/health: can this process serve a real answer now?
 */
export function readiness(deps: Deps): Readiness {
  const { db, ai, clock, lease } = deps;
  const checks = {
    database_writable: writable(deps),
    migrations_current: schemaState(db).status === "current",
    lease_held: holdsLease(db, lease, clock.now()),
    models_available: availableModels(ai).length,
  };
  const ready = checks.database_writable && checks.migrations_current && checks.lease_held && checks.models_available >= MIN_MODELS_READY;
  return { ready, checks };
}

/** Takes the write lock and lets it go: a read-only mount, a full disk's journal or a lock held elsewhere all say no. */
function writable({ db }: Deps): boolean {
  try {
    db.$client.run("BEGIN IMMEDIATE");
    db.$client.run("ROLLBACK");
    return true;
  } catch {
    return false;
  }
}
