import { aiProbeJob } from "../ai/ai.probe.job.ts";
import { billingJobs } from "../billing/billing.jobs.ts";
import { reconcileJob } from "../billing/reconcile.service.ts";
import { cleanupJob } from "./cleanup.job.ts";
import { aiCallsRetentionJob } from "./retention.job.ts";
import type { Job } from "./scheduler.ts";

/** Jobs that only read and write the database: what `unisson renewals run` runs from the CLI. */
export const databaseJobs: Job[] = [cleanupJob, aiCallsRetentionJob, ...billingJobs];

/**
 * Every background job of the server; the AI probe only refreshes this process's in-memory availability,
 * the daily reconciliation talks to Stripe (the CLI has `billing reconcile` for it).
 */
export const allJobs: Job[] = [...databaseJobs, aiProbeJob, reconcileJob];
