import { aiProbeJob } from "../ai/probe.job.ts";
import { renewalJobs } from "../billing/renewals.job.ts";
import { reconcileJob } from "../billing/reconcile.job.ts";
import { cleanupJob } from "./cleanup.job.ts";
import { aiCallsRetentionJob } from "./retention.job.ts";
import type { Job } from "./job.ts";

/** Jobs that only read and write the database: what `unisson renewals run` runs from the CLI. */
export const databaseJobs: Job[] = [cleanupJob, aiCallsRetentionJob, ...renewalJobs];

/**
 * Every background job of the server; the AI probe only refreshes this process's in-memory availability,
 * the daily reconciliation talks to Stripe (the CLI has `billing reconcile` for it).
 */
export const allJobs: Job[] = [...databaseJobs, aiProbeJob, reconcileJob];
