import type { MiddlewareHandler } from "hono";
import { rateLimiter, type Store } from "hono-rate-limiter";
import type { AppEnv } from "../deps.ts";
import { clientIp } from "./client-ip.ts";
import { type LimitRule, rateLimited } from "./rate-limit.ts";

/**
 * Per-IP limiter middleware (hono-rate-limiter on the app's store):
 * 429 { detail } with Retry-After past `limit` requests in `windowMs`.
 * `name` keeps limiters apart (e.g. "contact", "auth.login").
 */
export function ipRateLimit(rule: LimitRule & { name: string }): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const store = c.var.rateLimits;
    const mw = store.middleware(rule.name, () => {
      const prefix = `ip:${rule.name}:`;
      const adapter: Store<AppEnv> = {
        increment: async (key) => {
          const hit = await store.hit(prefix + key, rule.windowMs);
          return { totalHits: hit.count, resetTime: new Date(hit.resetAt) };
        },
        decrement: async (key) => await store.undo(prefix + key),
        resetKey: async (key) => await store.reset(prefix + key),
      };
      return rateLimiter<AppEnv>({
        windowMs: rule.windowMs,
        limit: rule.limit,
        standardHeaders: false,
        keyGenerator: (ctx) => clientIp(ctx),
        store: adapter,
        handler: async (ctx) => {
          const hit = await store.peek(prefix + clientIp(ctx));
          throw rateLimited(store, hit?.resetAt ?? store.clock.now().getTime() + rule.windowMs);
        },
      });
    });
    return mw(c, next);
  };
}
