import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, type ErrorCode, errorMessage } from "../lib/errors.ts";

export type OpenAiError = {
  status: ContentfulStatusCode;
  headers: Record<string, string>;
  body: { error: { message: string; type: string; code: string; param: string | null } };
};

/** The official SDKs wait Retry-After up to a minute; a limit that opens later is not worth retrying in-process. */
const RETRY_WORTH_S = 60;

const QUOTA: ReadonlySet<ErrorCode> = new Set(["TRIAL_EXPIRED", "QUOTA_TRIAL", "QUOTA_BASIC", "QUOTA_PRO", "QUOTA_OTHER"]);

/** What a client waits before trying again an outage (a model breaker's probe, a provider back): within every client's 60 s limit. */
export const OUTAGE_RETRY_AFTER_S = 30;

type Shape = { status: ContentfulStatusCode; type: string; code: string; message: string };

/**
 * OpenAI's type and code for a house error code. The status is the one the
 * common clients read right (docs/API.md, "Errors and retries"): a spent
 * quota is 402, which no client retries (the AI SDK and LangChain retry
 * every 429, whatever its body); a burst is 429 and an outage 503, both with
 * Retry-After, because waiting fixes them.
 */
function shape(e: AppError): Shape {
  if (QUOTA.has(e.code)) return { status: 402, type: "insufficient_quota", code: "insufficient_quota", message: e.message };
  if (e.code === "RATE_LIMITED" || e.code === "API_RATE_LIMITED")
    return { status: 429, type: "requests", code: "rate_limit_exceeded", message: errorMessage("API_RATE_LIMITED") };
  // A loop of failed runs (failed-runs.ts): its own words, the same status as any limit.
  if (e.code === "API_FAILING") return { status: 429, type: "requests", code: "rate_limit_exceeded", message: e.message };
  // The page's per-user limits, with the page's words (src/lib/spend-limit.ts, src/attachments/upload-limit.ts).
  if (e.code === "SPEND_LIMITED" || e.code === "TRIAL_DAILY_LIMITED" || e.code === "ATTACHMENTS_RATE_LIMITED")
    return { status: 429, type: "requests", code: "rate_limit_exceeded", message: e.message };
  if (e.code === "API_KEY_INVALID" || e.code === "UNAUTHENTICATED")
    return { status: 401, type: "invalid_request_error", code: "invalid_api_key", message: errorMessage("API_KEY_INVALID") };
  if (e.code === "CONTENT_REFUSED") return { status: 400, type: "invalid_request_error", code: "content_policy_violation", message: e.message };
  if (e.code === "API_MODEL_UNKNOWN") return { status: 400, type: "invalid_request_error", code: "model_not_found", message: e.message };
  if (e.code === "API_N_UNSUPPORTED" || e.code === "API_TOOL_REQUIRED" || e.code === "API_STATE_UNSUPPORTED")
    return { status: 400, type: "invalid_request_error", code: "unsupported_parameter", message: e.message };
  if (e.code === "API_NOT_FOUND" || e.code === "API_ENDPOINT_UNKNOWN")
    return { status: 404, type: "invalid_request_error", code: "unknown_url", message: errorMessage("API_ENDPOINT_UNKNOWN") };
  if (e.code === "MAINTENANCE") return { status: 503, type: "server_error", code: "models_unavailable", message: e.message };
  if (e.status >= 500) return { status: e.status === 500 ? 500 : 503, type: "server_error", code: "service_unavailable", message: e.message };
  return { status: e.status, type: "invalid_request_error", code: "invalid_request", message: e.message };
}

function appErrorOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) return new AppError(err.status === 413 ? "PAYLOAD_TOO_LARGE" : err.status === 400 ? "INVALID_JSON" : "INTERNAL");
  return new AppError("INTERNAL");
}

/**
 * Any error of a /v1 route in OpenAI's shape, French message kept. An
 * outage (503) and a burst (429) carry Retry-After: every client waits it
 * and tries again (a per-user limit that opens in more than a minute also
 * says `x-should-retry: false`). Everything else carries it too (the
 * official SDKs' own signal) and a status the AI SDK and LangChain do not
 * retry either (4xx other than 408/409/429), or 500 for a bug.
 */
export function toOpenAiError(err: unknown): OpenAiError {
  const e = appErrorOf(err);
  const s = shape(e);
  const headers: Record<string, string> = { ...e.headers };
  const retryAfter = Number(headers["Retry-After"] ?? headers["retry-after"] ?? 0);
  if (s.status === 503) {
    if (!retryAfter) headers["retry-after"] = String(OUTAGE_RETRY_AFTER_S);
  } else if (s.code !== "rate_limit_exceeded" || retryAfter > RETRY_WORTH_S) headers["x-should-retry"] = "false";
  const param = typeof e.extra?.param === "string" ? e.extra.param : null;
  return { status: s.status, headers, body: { error: { message: s.message, type: s.type, code: s.code, param } } };
}
