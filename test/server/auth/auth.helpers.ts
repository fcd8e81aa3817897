import { desc } from "drizzle-orm";
import { LOGIN_THROTTLE } from "../../../src/auth/credentials.ts";
import type { Db } from "../../../src/db/client.ts";
import type { Clock } from "../../../src/lib/clock.ts";
import { RateLimitStore } from "../../../src/lib/rate-limit.ts";
import { mailOutbox } from "../../../src/db/schema/index.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { extractCode, extractResetLink, resetTokenOf } from "../../fakes/smtp.ts";

/**
 * Mails kept in the outbox table (no SMTP_URL), newest first. Mails go out in
 * the background, after the answer: on SQLite the outbox row is in before the
 * response is read, on PostgreSQL (another round trip) a moment later, so
 * there the search looks again until it finds some and their number has not
 * changed for 100 ms (up to two seconds): a count is the count of every mail
 * the requests made, not of those written so far.
 */
export async function mails(db: Db, to?: string, kind?: string) {
  const read = async () => (await db.select().from(mailOutbox).orderBy(desc(mailOutbox.id))).filter((m) => (!to || m.to === to) && (!kind || m.kind === kind));
  let found = await read();
  if (!onPostgres) return found;
  for (let waited = 0, stable = 0; waited < 2_000 && (found.length === 0 || stable < 100); waited += 50) {
    await Bun.sleep(50);
    const again = await read();
    stable = again.length === found.length ? stable + 50 : 0;
    found = again;
  }
  return found;
}

export async function lastCode(db: Db, to: string): Promise<string> {
  const m = (await mails(db, to, "two_factor"))[0];
  if (!m) throw new Error(`no two-factor mail to ${to}`);
  return extractCode(m);
}

export async function lastResetToken(db: Db, to: string): Promise<string> {
  const m = (await mails(db, to, "reset"))[0];
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
export async function seedLoginFailures(db: Db, clock: Clock, email: string, n: number): Promise<void> {
  const store = new RateLimitStore(db, clock);
  for (let i = 0; i < n; i++) await store.hit(`fail:login:${email}`, LOGIN_THROTTLE.windowMs);
}
