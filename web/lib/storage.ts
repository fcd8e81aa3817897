import type { PublicUser } from "./api-types.ts";
import { LEGACY_TOKEN_KEY, TOKEN_KEY, USER_KEY } from "./api.ts";

export type StoredSession = { token: string; user: PublicUser };

/** localStorage can throw (private mode, disabled storage): every access is guarded. */
function get(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The session kept from a previous visit: both token and user must exist;
 * a user that does not parse as one clears both keys (docs/PRODUCT.md#session).
 */
export function readStoredSession(): StoredSession | null {
  const token = get(TOKEN_KEY) ?? get(LEGACY_TOKEN_KEY);
  const raw = get(USER_KEY);
  if (!token || !raw) return null;
  try {
    const user = JSON.parse(raw) as PublicUser;
    if (!user || typeof user !== "object" || typeof user.id !== "number" || typeof user.email !== "string") {
      throw new Error("corrupt user");
    }
    return { token, user };
  } catch {
    clearStoredSession();
    return null;
  }
}

export function writeStoredSession(token: string, user: PublicUser): void {
  try {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // Storage refused: the session still lives in memory for this tab.
  }
}

export function writeStoredUser(user: PublicUser): void {
  try {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // see writeStoredSession
  }
}

export function clearStoredSession(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    localStorage.removeItem(LEGACY_TOKEN_KEY);
  } catch {
    // nothing to clear
  }
}

/** A small remembered flag with an optional lifetime (banner dismissals). */
export function rememberFlag(key: string, ttlMs?: number, now = Date.now()): void {
  try {
    localStorage.setItem(key, JSON.stringify({ at: now, until: ttlMs ? now + ttlMs : null }));
  } catch {
    // not remembered: the banner may come back next visit
  }
}

export function hasFlag(key: string, now = Date.now()): boolean {
  const raw = get(key);
  if (!raw) return false;
  try {
    const v = JSON.parse(raw) as { until: number | null };
    return v.until === null || v.until > now;
  } catch {
    return false;
  }
}
