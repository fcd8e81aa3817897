import type { Database, Statement } from "bun:sqlite";
import { guardedWrite } from "../db/busy.ts";
import type { Db } from "../db/client.ts";
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
  private readonly sql: ReturnType<typeof prepare>;
  private readonly sqlite: Database;
  private lastSweep = 0;

  constructor(
    db: Db,
    readonly clock: Clock,
  ) {
    this.sqlite = db.$client;
    this.sql = prepare(db.$client);
  }

  /** Counts one hit of `key`; returns the count in the current window and when it closes. */
  hit(key: string, windowMs: number): Counter {
    const now = this.clock.now().getTime();
    this.sweep(now);
    const row = this.write(() => this.sql.hit.get(key, now, windowMs)) as { count: number; reset_at: number };
    return { count: row.count, resetAt: row.reset_at };
  }

  /** The current window of `key`, or undefined when it has none open. */
  peek(key: string): Counter | undefined {
    const row = this.sql.peek.get(key, this.clock.now().getTime()) as { count: number; reset_at: number } | null;
    return row ? { count: row.count, resetAt: row.reset_at } : undefined;
  }

  undo(key: string): void {
    this.write(() => this.sql.undo.run(key));
  }

  reset(key: string): void {
    this.write(() => this.sql.reset.run(key));
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
  private sweep(now: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    this.write(() => this.sql.sweep.run(now));
  }

  /** Counter writes give up at once while the database is locked elsewhere (src/db/busy.ts). */
  private write<T>(run: () => T): T {
    return guardedWrite(this.sqlite, run);
  }
}

function prepare(sqlite: Database): Record<"hit" | "peek" | "undo" | "reset" | "sweep", Statement> {
  return {
    // In DO UPDATE, every right-hand side reads the row as it was: a closed window restarts at 1.
    hit: sqlite.prepare(
      `INSERT INTO rate_limits (key, count, reset_at) VALUES (?1, 1, ?2 + ?3)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN reset_at <= ?2 THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= ?2 THEN ?2 + ?3 ELSE reset_at END
       RETURNING count, reset_at`,
    ),
    peek: sqlite.prepare("SELECT count, reset_at FROM rate_limits WHERE key = ?1 AND reset_at > ?2"),
    undo: sqlite.prepare("UPDATE rate_limits SET count = count - 1 WHERE key = ?1 AND count > 0"),
    reset: sqlite.prepare("DELETE FROM rate_limits WHERE key = ?1"),
    sweep: sqlite.prepare("DELETE FROM rate_limits WHERE reset_at <= ?1"),
  };
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
export function consumeLimit(store: RateLimitStore, name: string, key: string, rule: LimitRule): void {
  const hit = store.hit(`key:${name}:${key}`, rule.windowMs);
  if (hit.count > rule.limit) throw rateLimited(store, hit.resetAt);
}
