import { availableModels } from "../ai/engine.ts";
import type { ModelDef } from "../ai/registry.ts";
import { type Council, currentCouncil } from "../council/council-runtime.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { effectivePlan, remainingQueries, trialDaysRemaining } from "../users/quota.ts";

/** 402 with the plan-specific text of docs/PRODUCT.md#chat-blocks when the user may not ask right now. Charges nothing. */
export function assertCanQuery(user: UserRow, now: Date): void {
  if (remainingQueries(user) > 0 && effectivePlan(user, now) !== "expired") return;
  throw quotaError(user, now);
}

/**
 * Which 402: trial used up, trial or plan over, or the plan's own "no
 * requests left" text. A trial that spent its requests with days left reads
 * the spent-trial text whether or not the trial-expiry job has written it
 * `expired` yet: that is why it is blocked, until its days are over too.
 */
export function quotaError(user: UserRow, now: Date): AppError {
  const plan = effectivePlan(user, now);
  const left = remainingQueries(user);
  if (user.subscriptionType === "trial") return new AppError(left > 0 ? "TRIAL_EXPIRED" : "QUOTA_TRIAL");
  if (plan === "expired" && left <= 0 && trialDaysRemaining(user, now) > 0) return new AppError("QUOTA_TRIAL");
  if (plan === "expired") return new AppError("TRIAL_EXPIRED");
  if (plan === "basic") return new AppError("QUOTA_BASIC");
  if (plan === "pro") return new AppError("QUOTA_PRO");
  return new AppError("QUOTA_OTHER");
}

/**
 * 503 with the spec's maintenance text under 2 available members of the
 * council as it is now (one version read, no upstream call). Returns that
 * council, which the run keeps to its end, and its available members.
 */
export async function assertOperational(deps: Deps): Promise<{ council: Council; models: ModelDef[] }> {
  const council = await currentCouncil(deps);
  const models = availableModels(deps.ai, council);
  if (models.length < 2) throw new AppError("MAINTENANCE");
  return { council, models };
}
