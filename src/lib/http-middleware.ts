import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import { bootScriptHash } from "../../build/web/manifest.ts";
import { AppError } from "./errors.ts";

/** Path segments that are credentials (a reset link's token, a shared link's token): logs show the route, never the token. */
const SECRET_SEGMENT = /^(\/api\/auth\/validate-reset-token\/|\/api\/shared\/|\/partage\/)[^/]*/;

const SECRET_PREFIXES = ["/api/auth/validate-reset-token/", "/api/shared/", "/partage/"];

/** The request path as log lines may show it (a prefix test first: the regular expression only for the few paths that hold a token). */
export function loggedPath(path: string): string {
  return SECRET_PREFIXES.some((p) => path.startsWith(p)) ? path.replace(SECRET_SEGMENT, "$1[masqué]") : path;
}

/**
 * CSP the bundled SPA satisfies: scripts and styles only from our own origin
 * (React sets styles through the CSSOM, which style-src does not govern),
 * plus index.html's one inline boot script, allowed by its hash
 * (scripts/boot-script.ts), no framing, no plugins; images may be the
 * page's own blob: URLs (attachments, fetched with the bearer token).
 */
const securityHeaders = secureHeaders({
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

/**
 * The security headers every answer carries, as [name, value] pairs:
 * Hono's secureHeaders computes them (the CSP string above and its
 * defaults), once, on an empty answer; the request pipeline then sets them
 * in one loop instead of running the middleware on every request.
 */
export async function securityHeaderList(): Promise<ReadonlyArray<readonly [string, string]>> {
  const res = new Response(null);
  await securityHeaders({ res, get: () => undefined, set: () => {} } as never, async () => {});
  return [...res.headers];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by a page of another site (CSRF):
 * a browser always sends Origin on cross-site POSTs. Server-to-server calls
 * (Stripe webhooks, curl, the CLI) send none and pass. Throws CROSS_ORIGIN.
 */
export function crossOriginCheck(publicUrl: string): (c: Context) => void {
  const allowed = new URL(publicUrl).origin;
  return (c) => {
    if (SAFE_METHODS.has(c.req.method)) return;
    const origin = c.req.header("origin");
    if (origin === "null") throw new AppError("CROSS_ORIGIN");
    if (origin && origin !== allowed && origin !== new URL(c.req.url).origin) throw new AppError("CROSS_ORIGIN");
  };
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
  return createMiddleware((c, next) => (hasBody(c.req.raw) ? limit(c, next) : next()));
}

/** Whether a request may carry a body: a GET or HEAD with neither Content-Length nor Transfer-Encoding has none (RFC 9112, 6.3). */
export function hasBody(req: Request): boolean {
  const { method, headers } = req;
  return !((method === "GET" || method === "HEAD") && !headers.has("content-length") && !headers.has("transfer-encoding"));
}
