import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";

/** A header name (RFC 9110 token): what a preflight may ask for; anything else is left out. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/;

/** Headers a browser client may read: the retry hints and the request's identity. */
const EXPOSED_HEADERS = ["retry-after", "x-should-retry", "x-request-id", "idempotency-key"];

/** A preflight's cache in the browser: one question's retries reuse it. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for /v1 only: browser chat UIs call it with a bearer key, never a
 * cookie, so allowing other origins opens no CSRF (docs/SECURITY.md). Mounted
 * before the key check: a preflight carries no Authorization and is answered
 * here (204). Every header the preflight asks for is allowed (as `*` would,
 * which does not cover Authorization): clients add their own (the SDKs'
 * x-stainless-*, OpenRouter-style X-Title, HTTP-Referer), and with no cookie
 * read here a header opens nothing.
 */
export function v1Cors(origins: "*" | string[]) {
  return createMiddleware(async (c, next) => {
    const requested = (c.req.header("access-control-request-headers") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => HEADER_NAME.test(h));
    return await cors({
      origin: origins,
      allowMethods: ["GET", "POST", "OPTIONS"],
      allowHeaders: [...new Set(["authorization", "content-type", ...requested])],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_S,
    })(c, next);
  });
}
