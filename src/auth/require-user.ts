import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { UserRow } from "../db/schema/index.ts";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { setLogUser } from "../lib/log.ts";
import { findSession } from "./sessions.ts";

export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S{16,512})$/i);
  return m?.[1];
}

/**
 * The signed-in user of the request: reads the bearer's live session, sets
 * c.var.user and c.var.sessionId and the log context's user; 401 otherwise.
 * A handler may call it itself instead of going through requireUser (the
 * hottest route, /api/auth/me): one step where there were two, each an async
 * frame of Hono's compose (docs/BENCHMARKS.md, "Third round").
 */
export async function signedInUser(c: Context<AppEnv>): Promise<UserRow> {
  // c.get, not c.var: c.var copies every variable into a new object on each read (~0.25 µs), and this runs on every signed-in request.
  const { db, clock } = c.get("deps");
  const token = bearerToken(c.req.header("authorization"));
  const found = token ? await findSession(db, token, clock.now()) : undefined;
  if (!found) throw new AppError("UNAUTHENTICATED");
  c.set("user", found.user);
  c.set("sessionId", found.sessionId);
  setLogUser(found.user.id);
  return found.user;
}

/** Requires a live session (signedInUser) before the route's handler. 401 otherwise. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  await signedInUser(c);
  await next();
});

/** After requireUser: 403 with the spec's text when the user is not an admin. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.isAdmin) throw new AppError("ADMIN_REQUIRED");
  await next();
});
