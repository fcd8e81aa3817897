import { aiProbeJob } from "../ai/ai.probe.job.ts";
import { billingJobs } from "../billing/billing.jobs.ts";
import { cleanupJob } from "./cleanup.job.ts";
import type { Job } from "./scheduler.ts";

/** Every background job of the server, in the order `renewals run` applies them. */
export const allJobs: Job[] = [cleanupJob, ...billingJobs, aiProbeJob];
