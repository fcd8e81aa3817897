import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { Metrics } from "../system/metrics.ts";
import { secureHeaders } from "hono/secure-headers";
import { bootScriptHash } from "../../build/web/manifest.ts";
import { AppError } from "./errors.ts";
import { type Logger, withLogContext } from "./log.ts";

/** Path segments that are credentials (a reset link's token, a shared link's token): logs show the route, never the token. */
const SECRET_SEGMENT = /^(\/api\/auth\/validate-reset-token\/|\/api\/shared\/|\/partage\/)[^/]*/;

const SECRET_PREFIXES = ["/api/auth/validate-reset-token/", "/api/shared/", "/partage/"];

/** The request path as log lines may show it (a prefix test first: the regular expression only for the few paths that hold a token). */
export function loggedPath(path: string): string {
  return SECRET_PREFIXES.some((p) => path.startsWith(p)) ? path.replace(SECRET_SEGMENT, "$1[masqué]") : path;
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
  // The histogram's series of each (method, route, status), found once: prom-client otherwise sorts and hashes the labels on every observe.
  const series = new Map<string, { observe(seconds: number): void }>();
  return createMiddleware(async (c, next) => {
    const start = performance.now();
    const given = c.req.header("x-request-id");
    const requestId = given && CLIENT_ID.test(given) ? given : crypto.randomUUID();
    await withLogContext({ request_id: requestId }, async () => {
      await next();
      const { method, path } = c.req;
      const status = c.res.status;
      // Set on the finished response: cheaper than preparing headers before it exists.
      c.res.headers.set("X-Request-Id", requestId);
      const seconds = (performance.now() - start) / 1000;
      const route = routePath(c) || "unmatched";
      const key = `${method} ${status} ${route}`;
      let observer = series.get(key);
      if (!observer) series.set(key, (observer = metrics.http.labels(method, route, String(status))));
      observer.observe(seconds);
      const fields = { method, path: loggedPath(path), status, ms: Math.round(seconds * 10_000) / 10 };
      if (PROBES.has(path)) log.debug("http", fields);
      else log.info("http", fields);
    });
  });
}

/**
 * CSP the bundled SPA satisfies: scripts and styles only from our own origin
 * (React sets styles through the CSSOM, which style-src does not govern),
 * plus index.html's one inline boot script, allowed by its hash
 * (scripts/boot-script.ts), no framing, no plugins; images may be the
 * page's own blob: URLs (attachments, fetched with the bearer token).
 */
export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", bootScriptHash],
    styleSrc: ["'self'"],
    // blob: the page's own object URLs: a picked image's preview, an attachment's thumbnail fetched with the token.
    imgSrc: ["'self'", "data:", "blob:"],
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
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    if (origin === "null") throw new AppError("CROSS_ORIGIN");
    if (origin && origin !== allowed && origin !== new URL(c.req.url).origin) throw new AppError("CROSS_ORIGIN");
    await next();
  });
}

/**
 * Refuses a body over `maxSize` bytes with 413 (PAYLOAD_TOO_LARGE) before
 * anything reads it (Hono's bodyLimit, which counts a chunked body as it
 * comes). A GET or HEAD with neither Content-Length nor Transfer-Encoding
 * has no body (RFC 9112, 6.3) and goes straight on: asking Bun for the body
 * of every GET cost ~1-2.5 µs a request (docs/BENCHMARKS.md, "Per-request
 * cost"). Other methods always pass the limit (a Request built in-process
 * carries its body without either header).
 */
export function limitBody(maxSize: number) {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError("PAYLOAD_TOO_LARGE");
    },
  });
  return createMiddleware((c, next) => {
    const { method, headers } = c.req.raw;
    if ((method === "GET" || method === "HEAD") && !headers.has("content-length") && !headers.has("transfer-encoding")) return next();
    return limit(c, next);
  });
}
