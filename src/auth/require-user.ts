import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { setLogUser } from "../lib/log.ts";
import { findSession } from "./sessions.ts";

export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S{16,512})$/i);
  return m?.[1];
}

/** Requires a live session; sets c.var.user and c.var.sessionId. 401 otherwise. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  // c.get, not c.var: c.var copies every variable into a new object on each read (~0.25 µs), and this runs on every signed-in request.
  const { db, clock } = c.get("deps");
  const token = bearerToken(c.req.header("authorization"));
  const found = token ? await findSession(db, token, clock.now()) : undefined;
  if (!found) throw new AppError("UNAUTHENTICATED");
  c.set("user", found.user);
  c.set("sessionId", found.sessionId);
  setLogUser(found.user.id);
  await next();
});

/** After requireUser: 403 with the spec's text when the user is not an admin. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.isAdmin) throw new AppError("ADMIN_REQUIRED");
  await next();
});
