import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { Metrics } from "../system/metrics.ts";
import { secureHeaders } from "hono/secure-headers";
import { bootScriptHash } from "../../build/web/manifest.ts";
import { AppError } from "./errors.ts";
import { type Logger, withLogContext } from "./log.ts";

/** Path segments that are credentials (a reset link's token, a shared link's token): logs show the route, never the token. */
const SECRET_SEGMENT = /^(\/api\/auth\/validate-reset-token\/|\/api\/shared\/|\/partage\/)[^/]*/;

/** The request path as log lines may show it. */
export function loggedPath(path: string): string {
  return path.replace(SECRET_SEGMENT, "$1[masqué]");
}

/** Paths polled by machines (healthchecks, scrapers): their lines only at debug. */
const PROBES = new Set(["/api/health", "/api/health/ready", "/metrics"]);

/** A client's X-Request-Id is kept when it is 1-128 word characters, dashes, dots or colons. */
const CLIENT_ID = /^[\w.:-]{1,128}$/;

/**
 * Every log line of a request carries its request id (X-Request-Id in when
 * well-formed, a UUID otherwise, and out) (and the user once the
 * session is read, see require-user.ts); one line per request with its
 * duration, probes and scrapes only at debug; the latency histogram by route
 * pattern (never the raw path: bounded labels, no tokens).
 */
export function requestLogger(log: Logger, metrics: Metrics) {
  return createMiddleware(async (c, next) => {
    const start = performance.now();
    const given = c.req.header("x-request-id");
    const requestId = given && CLIENT_ID.test(given) ? given : crypto.randomUUID();
    await withLogContext({ request_id: requestId }, async () => {
      await next();
      // Set on the finished response: cheaper than preparing headers before it exists.
      c.res.headers.set("X-Request-Id", requestId);
      const seconds = (performance.now() - start) / 1000;
      const labels = { method: c.req.method, route: routePath(c) || "unmatched", status: String(c.res.status) };
      metrics.http.observe(labels, seconds);
      const fields = { method: c.req.method, path: loggedPath(c.req.path), status: c.res.status, ms: Math.round(seconds * 10_000) / 10 };
      if (PROBES.has(c.req.path)) log.debug("http", fields);
      else log.info("http", fields);
    });
  });
}

/**
 * CSP the bundled SPA satisfies: scripts and styles only from our own origin
 * (React sets styles through the CSSOM, which style-src does not govern),
 * plus index.html's one inline boot script, allowed by its hash
 * (scripts/boot-script.ts), no framing, no plugins.
 */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", bootScriptHash],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: "DENY",
  xContentTypeOptions: "nosniff",
  referrerPolicy: "strict-origin-when-cross-origin",
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by a page of another site (CSRF):
 * a browser always sends Origin on cross-site POSTs. Server-to-server calls
 * (Stripe webhooks, curl, the CLI) send none and pass.
 */
export function crossOriginGuard(publicUrl: string) {
  const allowed = new URL(publicUrl).origin;
  return createMiddleware(async (c, next) => {
    const origin = c.req.header("origin");
    if (!SAFE_METHODS.has(c.req.method) && origin && origin !== "null") {
      const own = new URL(c.req.url).origin;
      if (origin !== allowed && origin !== own) throw new AppError("CROSS_ORIGIN");
    } else if (!SAFE_METHODS.has(c.req.method) && origin === "null") {
      throw new AppError("CROSS_ORIGIN");
    }
    await next();
  });
}
