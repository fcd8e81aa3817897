/**
 * One reading of the four SDKs' errors: openai and @anthropic-ai/sdk carry
 * `status`, @mistralai/mistralai `statusCode`, @google/generative-ai `status`
 * on its fetch error. A request our own deadline aborted is a timeout, whatever
 * the SDK calls it.
 */
export type CallFailure = {
  kind: "timeout" | "error";
  status: number | null;
  retryable: boolean;
  /** Short French reason stored in result_data and the AI-call log (no secrets, no stack). */
  reason: string;
  /** The provider's own words (its error message, one line, cut, key-like strings masked), for the operator's log. */
  detail?: string;
};

/** Long token-like runs (API keys, even partly echoed back by a provider) never reach a log line. */
const KEY_LIKE = /[A-Za-z0-9_\-*.]{24,}/g;

export function providerDetail(err: unknown): string | undefined {
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message !== "string" || !message.trim()) return undefined;
  return message.replace(/\s+/g, " ").replace(KEY_LIKE, "[masqué]").trim().slice(0, 300);
}

export function classifyError(err: unknown, deadline: AbortSignal): CallFailure {
  if (deadline.aborted) return { kind: "timeout", status: null, retryable: false, reason: "délai dépassé" };
  return { ...classify(err), detail: providerDetail(err) };
}

function classify(err: unknown): CallFailure {
  const e = err as { status?: unknown; statusCode?: unknown; name?: unknown; message?: unknown } | null;
  const raw = e?.status ?? e?.statusCode;
  const status = typeof raw === "number" ? raw : null;
  if (status !== null) {
    const retryable = status === 429 || status >= 500;
    return { kind: "error", status, retryable, reason: reasonForStatus(status) };
  }
  const name = typeof e?.name === "string" ? e.name : "";
  const message = typeof e?.message === "string" ? e.message : "";
  if (/connection|fetch|ECONNRE|socket/i.test(`${name} ${message}`)) {
    return { kind: "error", status: null, retryable: true, reason: "connexion impossible" };
  }
  return { kind: "error", status: null, retryable: false, reason: "réponse invalide" };
}

function reasonForStatus(status: number): string {
  if (status === 401 || status === 403) return `clé refusée (HTTP ${status})`;
  if (status === 429) return "limite de débit atteinte (HTTP 429)";
  if (status >= 500) return `erreur du fournisseur (HTTP ${status})`;
  return `requête refusée (HTTP ${status})`;
}
