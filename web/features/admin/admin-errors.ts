import { fr } from "../../i18n/fr.ts";
import { ApiError, storedToken } from "../../lib/api.ts";

const t = fr.admin.errors;

/** docs/PRODUCT.md#errors: a missing token is retried once after 1 s (the session may still be settling after login). */
export const MISSING_TOKEN_RETRY_MS = 1_000;

export class MissingTokenError extends Error {}

/** Runs an admin call once a token exists, waiting 1 s for it once. */
export async function withToken<T>(call: () => Promise<T>): Promise<T> {
  if (!storedToken()) {
    await new Promise((r) => setTimeout(r, MISSING_TOKEN_RETRY_MS));
    if (!storedToken()) throw new MissingTokenError(t.missingToken);
  }
  return call();
}

/** The admin messages of docs/PRODUCT.md#errors; `prefix` names what failed to load. */
export function adminErrorMessage(err: unknown, prefix: string): string {
  if (err instanceof MissingTokenError) return t.missingToken;
  if (err instanceof ApiError) {
    if (err.status === 401) return t.unauthorized;
    if (err.status === 403) return t.forbidden;
    return prefix + (err.detail ?? err.message);
  }
  return prefix + (err instanceof Error ? err.message : String(err));
}
