import { storedToken, unwrap } from "./api.ts";

/**
 * The app screen's first API calls, started by index.html's boot script
 * (scripts/boot-script.ts) with a stored session, before the main script
 * has even downloaded. The hook that needs an answer takes its response
 * once; after that, or when nothing was started, it calls the API itself.
 */
export const EARLY_CALLS = { models: "/api/unisson/models", me: "/api/auth/me", myCode: "/api/promo/my-code" } as const;

/** Where the boot script leaves the responses: a global, the only channel from an inline script to the modules. */
export const EARLY_GLOBAL = "__unissonEarly";

/** The responses, and the token they were asked with. */
type Early = Partial<Record<keyof typeof EARLY_CALLS, Promise<Response>>> & { token?: string };

export function takeEarly<T>(key: keyof typeof EARLY_CALLS, call: () => Promise<T>): Promise<T> {
  const started = (globalThis as unknown as Record<string, Early | undefined>)[EARLY_GLOBAL];
  const res = started?.[key];
  if (!res) return call();
  delete started[key];
  // Asked for another session (the stored user was unreadable, the login screen showed, someone signed in): not this user's answer.
  if (started.token !== storedToken()) return call();
  return unwrap<T>(res as Promise<{ ok: boolean; status: number; headers: Headers; json(): Promise<T> }>);
}
