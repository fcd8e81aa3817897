import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps.ts";
import { effectivePlan } from "../users/quota.ts";
import { DAY, MINUTE } from "./clock.ts";
import { AppError } from "./errors.ts";

/**
 * Per-user limits on the endpoints that call the models (POST /chat,
 * /process and /v1/chat/completions, one counter per user whatever the API
 * key), checked at the route's entry, before any upstream call
 * (moderation, clarification, answers): a script with a valid session cannot
 * turn the account into an open AI proxy (docs/SECURITY.md, "Spend limits").
 * Messages of both endpoints count in the same two windows; a trial user's
 * /chat messages (moderation and clarification calls the trial never pays
 * for) count in a daily cap of their own. Counters live in the rate-limit
 * store (SQLite), so they survive restarts. After requireUser.
 */
export function spendLimit(opts: { trialCap: boolean }) {
  return createMiddleware<Pick<AppEnv, "Variables">>(async (c, next) => {
    await checkSpendLimits(c.var.deps, c.var.rateLimits, c.var.user, opts);
    await next();
  });
}

/** The same limits, for a caller that counts only the requests that would start a run (/v1: a retry joining its run does not count again). */
export async function checkSpendLimits(
  deps: Pick<AppEnv["Variables"]["deps"], "config" | "clock">,
  store: AppEnv["Variables"]["rateLimits"],
  user: AppEnv["Variables"]["user"],
  opts: { trialCap: boolean },
): Promise<void> {
  const { config, clock } = deps;
  const rules: Array<{ key: string; windowMs: number; limit: number; code: "SPEND_LIMITED" | "TRIAL_DAILY_LIMITED" }> = [
    { key: `spend:10min:${user.id}`, windowMs: 10 * MINUTE, limit: config.spend.per10Min, code: "SPEND_LIMITED" },
    { key: `spend:day:${user.id}`, windowMs: DAY, limit: config.spend.perDay, code: "SPEND_LIMITED" },
  ];
  if (opts.trialCap && effectivePlan(user, clock.now()) === "trial") {
    rules.push({ key: `spend:trial-day:${user.id}`, windowMs: DAY, limit: config.spend.trialPerDay, code: "TRIAL_DAILY_LIMITED" });
  }
  for (const rule of rules) {
    const hit = await store.hit(rule.key, rule.windowMs);
    if (hit.count > rule.limit) {
      const seconds = Math.max(1, Math.ceil((hit.resetAt - clock.now().getTime()) / 1000));
      throw new AppError(rule.code, undefined, { "Retry-After": String(seconds) });
    }
  }
}
