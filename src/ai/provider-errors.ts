import { frChat } from "../i18n/fr-chat.ts";
/**
 * One reading of the four SDKs' errors: openai and @anthropic-ai/sdk carry
 * `status` and `headers`, @mistralai/mistralai `statusCode` and
 * `rawResponse`, @google/generative-ai `status` and `errorDetails` (RetryInfo).
 * Which signal aborted the request decides between our deadline, a stalled
 * stream and a model left out on purpose.
 */
export type FailureKind = "timeout" | "error" | "refusal" | "cancelled";

export type CallFailure = {
  kind: FailureKind;
  status: number | null;
  retryable: boolean;
  /** Milliseconds the provider asked us to wait (`retry-after`), when it said. */
  retryAfterMs: number | null;
  /** Short French reason stored in result_data and the AI-call log (no secrets, no stack). */
  reason: string;
  /** The provider's own words (its error message, one line, cut, key-like strings masked), for the operator's log. */
  detail?: string;
};

export type AbortCause = "deadline" | "stall" | "cancel";

export function failure(kind: FailureKind, reason: string, status: number | null = null): CallFailure {
  return { kind, status, retryable: false, retryAfterMs: null, reason };
}

/** Long token-like runs (API keys, even partly echoed back by a provider) never reach a log line. */
const KEY_LIKE = /[A-Za-z0-9_\-*.]{24,}/g;

function providerDetail(err: unknown): string | undefined {
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message !== "string" || !message.trim()) return undefined;
  return message.replace(/\s+/g, " ").replace(KEY_LIKE, "[masqué]").trim().slice(0, 300);
}

export function classifyError(err: unknown, aborted: AbortCause | null): CallFailure {
  if (aborted === "cancel") return failure("cancelled", frChat.reason.cancelled);
  if (aborted === "stall") return failure("timeout", frChat.reason.stalled);
  if (aborted === "deadline") return failure("timeout", frChat.reason.deadline);
  return { ...classify(err), detail: providerDetail(err) };
}

function classify(err: unknown): CallFailure {
  const e = err as { status?: unknown; statusCode?: unknown; name?: unknown; message?: unknown } | null;
  const raw = e?.status ?? e?.statusCode;
  const status = typeof raw === "number" ? raw : null;
  if (status !== null) {
    const retryable = status === 429 || status >= 500;
    return { kind: "error", status, retryable, retryAfterMs: retryAfterOf(err), reason: reasonForStatus(status) };
  }
  const name = typeof e?.name === "string" ? e.name : "";
  const message = typeof e?.message === "string" ? e.message : "";
  if (/connection|fetch|ECONNRE|socket|terminated|coupée|closed|aborted/i.test(`${name} ${message}`)) {
    return { kind: "error", status: null, retryable: true, retryAfterMs: null, reason: "connexion interrompue" };
  }
  return failure("error", "réponse invalide");
}

function reasonForStatus(status: number): string {
  if (status === 401 || status === 403) return `clé refusée (HTTP ${status})`;
  if (status === 429) return "limite de débit atteinte (HTTP 429)";
  if (status >= 500) return `erreur du fournisseur (HTTP ${status})`;
  return `requête refusée (HTTP ${status})`;
}

function header(headers: unknown, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const v = (headers as Record<string, unknown>)[name];
  return typeof v === "string" ? v : null;
}

/** `retry-after` in seconds or as an HTTP date, or Gemini's RetryInfo "30s"; null when absent. */
function retryAfterOf(err: unknown): number | null {
  const e = err as { headers?: unknown; rawResponse?: { headers?: unknown }; errorDetails?: Array<Record<string, unknown>> } | null;
  const value = header(e?.headers, "retry-after") ?? header(e?.rawResponse?.headers, "retry-after");
  if (value) {
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(value);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  const info = e?.errorDetails?.find((d) => String(d["@type"] ?? "").endsWith("RetryInfo"));
  const delay = typeof info?.retryDelay === "string" ? Number.parseFloat(info.retryDelay) : Number.NaN;
  return Number.isFinite(delay) ? delay * 1000 : null;
}
