import { hc } from "hono/client";
import type { AppType } from "../../src/app.ts";

/** Thrown for any non-2xx answer: the status and the server's French `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | undefined,
    /** Seconds of the Retry-After header, when the server sent one (429). */
    readonly retryAfter?: number,
  ) {
    super(detail ?? `HTTP ${status}`);
  }
}

export const TOKEN_KEY = "unisson_token";
export const USER_KEY = "unisson_user";
/** Older builds stored the token under this key; read as a fallback only. */
export const LEGACY_TOKEN_KEY = "token";

export function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(LEGACY_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The one typed client of the API: a renamed field breaks the build, not the user. */
export const api = hc<AppType>("/", {
  headers: (): Record<string, string> => {
    const token = storedToken();
    return token ? { Authorization: `Bearer ${token}` } : {};
  },
}).api;

type Res<T> = { ok: boolean; status: number; headers?: Headers; json(): Promise<T> };

/** Awaits a client call and returns its JSON, or throws ApiError with the server's detail. */
export async function unwrap<T>(call: Promise<Res<T>> | Res<T>): Promise<T> {
  const res = await call;
  if (!res.ok) throw await apiError(res);
  return res.json();
}

/** The ApiError of a response: its status and the `detail` of its JSON body, if any. */
export async function apiError(res: { status: number; headers?: Headers; json(): Promise<unknown> }): Promise<ApiError> {
  let detail: string | undefined;
  try {
    const body = (await res.json()) as { detail?: unknown };
    if (typeof body?.detail === "string") detail = body.detail;
  } catch {
    // Not JSON (a proxy's error page): no detail to show.
  }
  const retry = Number(res.headers?.get("Retry-After") ?? Number.NaN);
  return new ApiError(res.status, detail, Number.isFinite(retry) ? retry : undefined);
}

/** The server's French detail when there is one, else the screen's own message. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.detail ? err.detail : fallback;
}
