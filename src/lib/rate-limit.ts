import { and, eq, gt, lte, sql } from "drizzle-orm";
import { guardedWrite } from "../db/busy.ts";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/index.ts";
import type { Clock } from "./clock.ts";
import { AppError } from "./errors.ts";

/** At most `limit` hits per `windowMs` (a fixed window that opens at the first hit). */
export type LimitRule = { windowMs: number; limit: number };

type Counter = { count: number; resetAt: number };

/**
 * Fixed-window counters in the `rate_limits` table, on the injected clock:
 * a restart resets nothing, and a second server process or the CLI on the
 * same database shares them (docs/SECURITY.md, "Rate limits"). One upsert
 * per hit, so two processes never lose a count. Tests advance the clock
 * instead of sleeping.
 */
export class RateLimitStore {
  private readonly middlewares = new Map<string, unknown>();
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    readonly clock: Clock,
  ) {}

  /** Counts one hit of `key`; returns the count in the current window and when it closes. */
  async hit(key: string, windowMs: number): Promise<Counter> {
    const now = this.clock.now().getTime();
    await this.sweep(now);
    // In DO UPDATE, every right-hand side reads the row as it was: a closed window restarts at 1.
    const [row] = await this.write(() =>
      this.db
        .insert(rateLimits)
        .values({ key, count: 1, resetAt: now + windowMs })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
            resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${now + windowMs} ELSE ${rateLimits.resetAt} END`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt }),
    );
    return row!;
  }

  /** The current window of `key`, or undefined when it has none open. */
  async peek(key: string): Promise<Counter | undefined> {
    const [row] = await this.db
      .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, this.clock.now().getTime())));
    return row;
  }

  async undo(key: string): Promise<void> {
    await this.write(() =>
      this.db
        .update(rateLimits)
        .set({ count: sql`${rateLimits.count} - 1` })
        .where(and(eq(rateLimits.key, key), gt(rateLimits.count, 0))),
    );
  }

  async reset(key: string): Promise<void> {
    await this.write(() => this.db.delete(rateLimits).where(eq(rateLimits.key, key)));
  }

  /** hono-rate-limiter middlewares are built once per app and per limiter name (src/lib/ip-rate-limit.ts). */
  middleware<M>(name: string, build: () => M): M {
    let mw = this.middlewares.get(name) as M | undefined;
    if (!mw) {
      mw = build();
      this.middlewares.set(name, mw);
    }
    return mw;
  }

  /** Drops closed windows, at most once a minute, so the table never grows without bound. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.write(() => this.db.delete(rateLimits).where(lte(rateLimits.resetAt, now)));
  }

  /** Counter writes give up at once while the database is locked elsewhere (src/db/busy.ts). */
  private async write<T>(run: () => PromiseLike<T>): Promise<T> {
    return await guardedWrite(this.db, async () => await run());
  }
}

export function createRateLimitStore(db: Db, clock: Clock): RateLimitStore {
  return new RateLimitStore(db, clock);
}

/** 429 with the French detail and Retry-After in whole seconds. */
export function rateLimited(store: RateLimitStore, resetAt: number): AppError {
  const seconds = Math.max(1, Math.ceil((resetAt - store.clock.now().getTime()) / 1000));
  return new AppError("RATE_LIMITED", undefined, { "Retry-After": String(seconds) });
}

/**
 * Per-key limit (per account: the e-mail of the body, once validated; per
 * user: the user id). Throws the 429 when `key` went past `limit` hits in `windowMs`.
 */
export async function consumeLimit(store: RateLimitStore, name: string, key: string, rule: LimitRule): Promise<void> {
  const hit = await store.hit(`key:${name}:${key}`, rule.windowMs);
  if (hit.count > rule.limit) throw rateLimited(store, hit.resetAt);
}
