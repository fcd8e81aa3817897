import { desc } from "drizzle-orm";
import { LOGIN_THROTTLE } from "../../../src/auth/credentials.ts";
import type { Db } from "../../../src/db/client.ts";
import type { Clock } from "../../../src/lib/clock.ts";
import { RateLimitStore } from "../../../src/lib/rate-limit.ts";
import { mailOutbox } from "../../../src/db/schema/index.ts";
import { extractCode, extractResetLink, resetTokenOf } from "../../fakes/smtp.ts";

/** Mails kept in the outbox table (no SMTP_URL), newest first. */
export function mails(db: Db, to?: string, kind?: string) {
  return db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.id))
    .all()
    .filter((m) => (!to || m.to === to) && (!kind || m.kind === kind));
}

export function lastCode(db: Db, to: string): string {
  const m = mails(db, to, "two_factor")[0];
  if (!m) throw new Error(`no two-factor mail to ${to}`);
  return extractCode(m);
}

export function lastResetToken(db: Db, to: string): string {
  const m = mails(db, to, "reset")[0];
  if (!m) throw new Error(`no reset mail to ${to}`);
  return resetTokenOf(extractResetLink(m));
}

/** The remembered-device cookie pair ("name=value") of a Set-Cookie header, for the next request. */
export function deviceCookie(headers: Headers): string | undefined {
  const set = headers.get("set-cookie") ?? "";
  return set.match(/unisson_device=[^;]+/)?.[0];
}

/** A different wrong code than `right`. */
export function wrongCode(right: string): string {
  return right === "000000" ? "111111" : "000000";
}

/** `n` failed logins of `email` in the current window, as the throttle counts them (without waiting its delays). */
export function seedLoginFailures(db: Db, clock: Clock, email: string, n: number): void {
  const store = new RateLimitStore(db, clock);
  for (let i = 0; i < n; i++) store.hit(`fail:login:${email}`, LOGIN_THROTTLE.windowMs);
}
