import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { DAY } from "../lib/clock.ts";
import { randomToken, sha256 } from "../lib/tokens.ts";
import { findLiveDevice, insertDevice } from "./auth.queries.ts";

/** A device that passed two-factor with "remember" skips it for 30 days (DECISIONS.md). */
const DEVICE_TTL_MS = 30 * DAY;
const DEVICE_COOKIE = "unisson_device";
/** Only the auth endpoints ever need to see it. */
const COOKIE_PATH = "/api/auth";

/** Stores the device (hashed) and returns the token for the cookie. */
export async function rememberDevice(db: Db, userId: number, now: Date): Promise<string> {
  const token = randomToken(32);
  await insertDevice(db, { userId, tokenHash: sha256(token), createdAt: now, expiresAt: new Date(now.getTime() + DEVICE_TTL_MS) });
  return token;
}

export async function isRememberedDevice(db: Db, userId: number, token: string | undefined, now: Date): Promise<boolean> {
  if (!token || token.length > 200) return false;
  return (await findLiveDevice(db, userId, sha256(token), now)) !== undefined;
}

export function readDeviceCookie(c: Context): string | undefined {
  return getCookie(c, DEVICE_COOKIE);
}

/** HttpOnly, SameSite=Lax, Secure when the public address is https, 30 days. */
export function setDeviceCookie(c: Context, token: string, config: Config): void {
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: config.publicUrl.startsWith("https://"),
    path: COOKIE_PATH,
    maxAge: DEVICE_TTL_MS / 1000,
  });
}
