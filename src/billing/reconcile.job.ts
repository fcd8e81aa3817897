import type { Deps } from "../deps.ts";
import type { Job } from "../jobs/job.ts";
import { DAY } from "../lib/clock.ts";
import { reconcile } from "./reconcile.service.ts";

/** The daily run: only with Stripe configured (without it there is nothing to compare). */
export const reconcileJob: Job = {
  name: "billing-reconcile",
  everyMs: DAY,
  runAtStart: false,
  run: (deps: Deps) => (deps.stripe ? reconcile(deps).then((r) => ({ differences: r.differences.length })) : { skipped: "no Stripe key" }),
};
