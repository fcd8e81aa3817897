import type { ErrorHandler, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv, Deps } from "../deps.ts";
import { compressJsonAnswer } from "./compress.ts";
import { answerMade, securityHeaders } from "./answer-headers.ts";
import { crossOriginCheck, hasBody, limitBody, loggedPath } from "./http-middleware.ts";
import { type LogContext, withLogContext } from "./log.ts";

/** Paths polled by machines (healthchecks, scrapers): their lines only at debug. */
const PROBES = new Set(["/api/health", "/api/health/ready", "/metrics"]);

/** A client's X-Request-Id is kept when it is 1-128 word characters, dashes, dots or colons. */
const CLIENT_ID = /^[\w.:-]{1,128}$/;

/** The request variables every handler reads (AppEnv), the same for each request of one app. */
export type AppVariables = Pick<AppEnv["Variables"], "deps" | "rateLimits" | "slots">;

/**
 * Everything every request goes through, in one middleware (one async frame
 * where there were six Hono layers, ~0.15-0.25 µs each: docs/BENCHMARKS.md,
 * "Per-request cost"), in this order:
 *  - its request id (X-Request-Id in when well-formed, a UUID otherwise, and
 *    out), carried by every log line of the request through its log context
 *    (and the user once the session is read, see require-user.ts);
 *  - the app's variables (deps, rate limits, open slots);
 *  - under /api: the cross-site guard and the body limit before the route,
 *    the JSON compression after it (compress.ts);
 *  - the security headers (Hono's secureHeaders, computed once; already in
 *    place on an answer made by answerJson, answer-headers.ts) and the
 *    request id on the answer;
 *  - the latency histogram by route pattern (never the raw path: bounded
 *    labels, no tokens), its series found once per (method, status, route):
 *    prom-client otherwise sorts and hashes the labels on every observe;
 *  - one log line with the duration, probes and scrapes only at debug.
 * An error of the guards goes to the app's error handler, as it would from a
 * layer of its own; the answer then gets its headers and its line as any.
 */
export function requestPipeline(
  deps: Pick<Deps, "log" | "metrics" | "config">,
  vars: AppVariables,
  opts: { maxBodyBytes: number; onError: ErrorHandler<AppEnv> },
): MiddlewareHandler<AppEnv> {
  const { log, metrics } = deps;
  const series = new Map<string, { observe(seconds: number): void }>();
  const checkOrigin = crossOriginCheck(deps.config.publicUrl);
  const limit = limitBody(opts.maxBodyBytes);
  let security: Awaited<typeof securityHeaders> | undefined;

  /** /api with a body: the cross-site guard and the body limit before the route. */
  const guarded: MiddlewareHandler<AppEnv> = async (c, next) => {
    try {
      checkOrigin(c);
      // An upload has its own limit, ATTACHMENT_MAX_MB (src/attachments/attachments.routes.ts).
      if (c.req.method === "POST" && c.req.path === "/api/attachments") await next();
      else await limit(c, next);
    } catch (err) {
      // What compose does for an error of a middleware layer: the app's handler answers it.
      if (!(err instanceof Error)) throw err;
      c.error = err;
      c.res = await opts.onError(err, c);
    }
  };

  return async (c, next) => {
    const start = performance.now();
    const list = (security ??= await securityHeaders);
    const given = c.req.header("x-request-id");
    const ctx: LogContext = { request_id: given && CLIENT_ID.test(given) ? given : crypto.randomUUID() };
    c.set("deps", vars.deps);
    c.set("rateLimits", vars.rateLimits);
    c.set("slots", vars.slots);
    const { method, path } = c.req;
    const api = path === "/api" || path.startsWith("/api/");
    // A bodyless GET or HEAD goes straight to its route (no guard applies): no async frame between.
    await withLogContext(ctx, api && hasBody(c.req.raw) ? () => guarded(c, next) : next);
    const made = answerMade(c.res);
    if (api && made !== "small") {
      // After the route, outside its log context: compressing logs nothing.
      const compressing = compressJsonAnswer(c, made !== undefined);
      if (compressing) await compressing;
    }
    const res = c.res;
    const headers = res.headers;
    // An answer of answerJson has them already, unless the compression made another (with the same headers).
    if (!made || answerMade(res) === undefined) for (const [name, value] of list) headers.set(name, value);
    headers.set("X-Request-Id", ctx.request_id!);
    const status = res.status;
    const seconds = (performance.now() - start) / 1000;
    const route = routePath(c) || "unmatched";
    const key = `${method} ${status} ${route}`;
    let observer = series.get(key);
    if (!observer) series.set(key, (observer = metrics.http.labels(method, route, String(status))));
    observer.observe(seconds);
    // The request's context given as fields: the line is written outside it (same line, one frame less).
    const fields = { method, path: loggedPath(path), status, ms: Math.round(seconds * 10_000) / 10, user_id: ctx.user_id, request_id: ctx.request_id! };
    log.request(PROBES.has(path) ? "debug" : "info", fields);
  };
}
