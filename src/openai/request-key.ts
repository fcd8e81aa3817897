import { createHash } from "node:crypto";
import { AppError } from "../lib/errors.ts";
import type { RequestKey } from "./api-requests.queries.ts";

/** Longest Idempotency-Key kept (Stripe's limit): a longer one is a client bug. */
const MAX_IDEMPOTENCY_KEY = 255;

/** JSON with keys sorted at every level: the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * What identifies a question for joining its run (joined-runs.ts): the API
 * key, then the Idempotency-Key when the client sends one, otherwise what the
 * engine will be asked (the question, its context and the options that shape
 * the answer), so two requests that differ only in how they are delivered
 * (stream or not, chat or responses) or in fields Unisson ignores are one.
 */
export function requestKeyOf(apiKeyId: number, idempotencyKey: string | undefined, asked: unknown): RequestKey & { idempotent: boolean } {
  const bodyHash = createHash("sha256").update(canonical(asked)).digest("base64url");
  const idem = idempotencyKey?.trim();
  if (idem && idem.length > MAX_IDEMPOTENCY_KEY)
    throw new AppError("VALIDATION", `L'en-tête Idempotency-Key ne peut dépasser ${MAX_IDEMPOTENCY_KEY} caractères.`);
  if (idem) return { apiKeyId, requestKey: `idem:${idem}`, bodyHash, idempotent: true };
  return { apiKeyId, requestKey: `body:${bodyHash}`, bodyHash, idempotent: false };
}
