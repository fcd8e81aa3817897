import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";

/** The headers the OpenAI-compatible clients send (the official SDKs add their own x-stainless-* telemetry and retry headers). */
const ALLOWED_HEADERS = new Set(["authorization", "content-type", "accept", "idempotency-key", "openai-organization", "openai-project", "openai-beta"]);
const SDK_HEADER = /^x-stainless-[a-z0-9-]+$/;

/** Headers a browser client may read: the retry hints and the request's identity. */
const EXPOSED_HEADERS = ["retry-after", "x-should-retry", "x-request-id", "idempotency-key"];

/** A preflight's cache in the browser: one question's retries reuse it. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for /v1 only: browser chat UIs call it with a bearer key, never a
 * cookie, so allowing other origins opens no CSRF (docs/SECURITY.md). Mounted
 * before the key check: a preflight carries no Authorization and is answered
 * here (204). The allowed request headers are the ones clients send: a header
 * outside them is left out of Access-Control-Allow-Headers and the browser refuses.
 */
export function v1Cors(origins: "*" | string[]) {
  return createMiddleware(async (c, next) => {
    const requested = (c.req.header("access-control-request-headers") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => ALLOWED_HEADERS.has(h) || SDK_HEADER.test(h));
    return await cors({
      origin: origins,
      allowMethods: ["GET", "POST", "OPTIONS"],
      allowHeaders: [...new Set(["authorization", "content-type", ...requested])],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_S,
    })(c, next);
  });
}
