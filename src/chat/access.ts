import { availableModels } from "../ai/engine.ts";
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

/** 503 with the spec's maintenance text under 2 available models (cached state, no upstream call). */
export function assertOperational(deps: Deps) {
  const models = availableModels(deps.ai);
  if (models.length < 2) throw new AppError("MAINTENANCE");
  return models;
}
