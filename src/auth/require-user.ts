import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Db } from "../db/client.ts";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { setLogUser } from "../lib/log.ts";
import { findSession } from "./sessions.ts";

export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S{16,512})$/i);
  return m?.[1];
}

/**
 * The signed-in user of the request, as `find` reads it (findSession: the
 * whole row; findSessionShown: what /api/auth/me shows); sets
 * c.var.sessionId and the log context's user; 401 otherwise. The hottest
 * route, /api/auth/me, calls it itself instead of going through requireUser:
 * one step where there were two, each an async frame of Hono's compose
 * (docs/BENCHMARKS.md, "Third round").
 */
export async function signedIn<R extends { id: number }>(
  c: Context<AppEnv>,
  find: (db: Db, token: string, now: Date) => Promise<{ sessionId: number; user: R } | undefined>,
): Promise<R> {
  // c.get, not c.var: c.var copies every variable into a new object on each read (~0.25 µs), and this runs on every signed-in request.
  const { db, clock } = c.get("deps");
  const token = bearerToken(c.req.header("authorization"));
  const found = token ? await find(db, token, clock.now()) : undefined;
  if (!found) throw new AppError("UNAUTHENTICATED");
  c.set("sessionId", found.sessionId);
  setLogUser(found.user.id);
  return found.user;
}

/** Requires a live session before the route's handler; sets c.var.user (the whole row) and c.var.sessionId. 401 otherwise. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  c.set("user", await signedIn(c, findSession));
  await next();
});

/** After requireUser: 403 with the spec's text when the user is not an admin. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.isAdmin) throw new AppError("ADMIN_REQUIRED");
  await next();
});
