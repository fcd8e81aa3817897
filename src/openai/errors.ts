import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, type ErrorCode, errorMessage } from "../lib/errors.ts";

export type OpenAiError = {
  status: ContentfulStatusCode;
  headers: Record<string, string>;
  body: { error: { message: string; type: string; code: string; param: null } };
};

/** The official SDKs wait Retry-After up to a minute; a limit that opens later is not worth retrying in-process. */
const RETRY_WORTH_S = 60;

const QUOTA: ReadonlySet<ErrorCode> = new Set(["TRIAL_EXPIRED", "QUOTA_TRIAL", "QUOTA_BASIC", "QUOTA_PRO", "QUOTA_OTHER"]);

/** OpenAI's type and code for a house error code; the status follows OpenAI where it differs (402 -> 429). */
function shape(e: AppError): { status: ContentfulStatusCode; type: string; code: string; message: string } {
  if (QUOTA.has(e.code)) return { status: 429, type: "insufficient_quota", code: "insufficient_quota", message: e.message };
  if (e.code === "RATE_LIMITED" || e.code === "API_RATE_LIMITED")
    return { status: 429, type: "requests", code: "rate_limit_exceeded", message: errorMessage("API_RATE_LIMITED") };
  // The page's per-user limits, with the page's words (src/lib/spend-limit.ts).
  if (e.code === "SPEND_LIMITED" || e.code === "TRIAL_DAILY_LIMITED") return { status: 429, type: "requests", code: "rate_limit_exceeded", message: e.message };
  if (e.code === "API_KEY_INVALID" || e.code === "UNAUTHENTICATED")
    return { status: 401, type: "invalid_request_error", code: "invalid_api_key", message: errorMessage("API_KEY_INVALID") };
  if (e.code === "CONTENT_REFUSED") return { status: 400, type: "invalid_request_error", code: "content_policy_violation", message: e.message };
  if (e.code === "API_MODEL_UNKNOWN") return { status: 400, type: "invalid_request_error", code: "model_not_found", message: e.message };
  if (e.code === "API_NOT_FOUND") return { status: 404, type: "invalid_request_error", code: "unknown_url", message: e.message };
  if (e.code === "MAINTENANCE") return { status: 503, type: "server_error", code: "models_unavailable", message: e.message };
  if (e.status >= 500) return { status: e.status === 500 ? 500 : 503, type: "server_error", code: "service_unavailable", message: e.message };
  return { status: e.status, type: "invalid_request_error", code: "invalid_request", message: e.message };
}

/**
 * Any error of a /v1 route in OpenAI's shape, French message kept.
 * `x-should-retry: false` tells the official SDKs not to retry what a retry
 * cannot fix (they retry every 429 and 5xx otherwise); burst limits keep Retry-After.
 */
export function toOpenAiError(err: unknown): OpenAiError {
  let e: AppError;
  if (err instanceof AppError) e = err;
  else if (err instanceof HTTPException) e = new AppError(err.status === 413 ? "PAYLOAD_TOO_LARGE" : err.status === 400 ? "INVALID_JSON" : "INTERNAL");
  else e = new AppError("INTERNAL");
  const s = shape(e);
  const headers: Record<string, string> = { ...e.headers };
  const retryAfter = Number(headers["Retry-After"] ?? 0);
  if (s.code !== "rate_limit_exceeded" || retryAfter > RETRY_WORTH_S) headers["x-should-retry"] = "false";
  return { status: s.status, headers, body: { error: { message: s.message, type: s.type, code: s.code, param: null } } };
}
