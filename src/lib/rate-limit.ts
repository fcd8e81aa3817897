import type { Context, MiddlewareHandler } from "hono";
import { rateLimiter, type Store } from "hono-rate-limiter";
import type { AppEnv } from "../deps.ts";
import type { Clock } from "./clock.ts";
import { AppError } from "./errors.ts";

/** At most `limit` hits per `windowMs` (a fixed window that opens at the first hit). */
export type LimitRule = { windowMs: number; limit: number };

type Counter = { count: number; resetAt: number };

/**
 * In-memory fixed-window counters on the injected clock, one store per app
 * (createApp makes it; no module singleton), so tests advance time instead of
 * sleeping. hono-rate-limiter's own MemoryStore reads Date.now(), hence this one.
 */
export class RateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private readonly middlewares = new Map<string, MiddlewareHandler<AppEnv>>();
  private lastSweep = 0;

  constructor(readonly clock: Clock) {}

  /** Counts one hit of `key`; returns the count in the current window and when it closes. */
  hit(key: string, windowMs: number): Counter {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let c = this.counters.get(key);
    if (!c || c.resetAt <= now) {
      c = { count: 0, resetAt: now + windowMs };
      this.counters.set(key, c);
    }
    c.count += 1;
    return c;
  }

  peek(key: string): Counter | undefined {
    return this.counters.get(key);
  }

  undo(key: string): void {
    const c = this.counters.get(key);
    if (c && c.count > 0) c.count -= 1;
  }

  reset(key: string): void {
    this.counters.delete(key);
  }

  /** hono-rate-limiter middlewares are built once per app and per limiter name. */
  middleware(name: string, build: () => MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
    let mw = this.middlewares.get(name);
    if (!mw) {
      mw = build();
      this.middlewares.set(name, mw);
    }
    return mw;
  }

  /** Drops closed windows, at most once a minute, so the map never grows without bound. */
  private sweep(now: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
  }
}

export function createRateLimitStore(clock: Clock): RateLimitStore {
  return new RateLimitStore(clock);
}

/** 429 with the French detail and Retry-After in whole seconds. */
export function rateLimited(store: RateLimitStore, resetAt: number): AppError {
  const seconds = Math.max(1, Math.ceil((resetAt - store.clock.now().getTime()) / 1000));
  return new AppError("RATE_LIMITED", undefined, { "Retry-After": String(seconds) });
}

type ServerWithIp = { requestIP?(req: Request): { address: string } | null };

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The caller's IP. From the TCP connection (Bun's server.requestIP); the last
 * X-Forwarded-For hop is honoured only when the connection comes from
 * loopback, i.e. from a reverse proxy on the same box (docs/DECISIONS.md).
 * In-process requests (app.request in tests) have no connection: the header,
 * else "local".
 */
export function clientIp(c: Context): string {
  const server = c.env as ServerWithIp | undefined;
  let remote: string | undefined;
  try {
    remote = typeof server?.requestIP === "function" ? server.requestIP(c.req.raw)?.address : undefined;
  } catch {
    remote = undefined;
  }
  const lastHop = c.req
    .header("x-forwarded-for")
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .at(-1)
    ?.slice(0, 64);
  if (!remote) return lastHop ?? "local";
  if (LOOPBACK.test(remote) && lastHop) return lastHop;
  return remote;
}

/**
 * Per-IP limiter middleware (hono-rate-limiter on the app's clock store):
 * 429 { detail } with Retry-After past `limit` requests in `windowMs`.
 * `name` keeps limiters apart (e.g. "contact", "auth.login").
 */
export function ipRateLimit(rule: LimitRule & { name: string }): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const store = c.var.rateLimits;
    const mw = store.middleware(rule.name, () => {
      const prefix = `ip:${rule.name}:`;
      const adapter: Store<AppEnv> = {
        increment: (key) => {
          const hit = store.hit(prefix + key, rule.windowMs);
          return { totalHits: hit.count, resetTime: new Date(hit.resetAt) };
        },
        decrement: (key) => store.undo(prefix + key),
        resetKey: (key) => store.reset(prefix + key),
      };
      return rateLimiter<AppEnv>({
        windowMs: rule.windowMs,
        limit: rule.limit,
        standardHeaders: false,
        keyGenerator: (ctx) => clientIp(ctx),
        store: adapter,
        handler: (ctx) => {
          const hit = store.peek(prefix + clientIp(ctx));
          throw rateLimited(store, hit?.resetAt ?? store.clock.now().getTime() + rule.windowMs);
        },
      });
    });
    return mw(c, next);
  };
}

/**
 * Per-key limit inside a handler (per account: the e-mail of the body, once
 * validated). Throws the 429 when `key` went past `limit` hits in `windowMs`.
 */
export function consumeLimit(c: Context<AppEnv>, name: string, key: string, rule: LimitRule): void {
  const store = c.var.rateLimits;
  const hit = store.hit(`key:${name}:${key}`, rule.windowMs);
  if (hit.count > rule.limit) throw rateLimited(store, hit.resetAt);
}
