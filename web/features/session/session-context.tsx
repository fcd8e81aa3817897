import { createContext, type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import type { PublicUser } from "../../lib/api-types.ts";
import { ApiError } from "../../lib/api.ts";
import { takeEarly } from "../../lib/early.ts";
import { fetchMe, logoutCall } from "./session.api.ts";
import { clearStoredSession, readStoredSession, writeStoredSession, writeStoredUser } from "../../lib/storage.ts";

export type SessionValue = {
  user: PublicUser | null;
  token: string | null;
  /** After login, register or two-factor: stores both and signs in. */
  setSession(user: PublicUser, token: string): void;
  /** GET /auth/me; a 401 logs out (docs/PRODUCT.md#session), other failures keep the user. */
  refreshUser(): Promise<void>;
  /** Revokes the session on the server (best effort) and clears storage; `ended`: the server already ended it (account deleted). */
  logout(ended?: boolean): Promise<void>;
};

export const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState(() => readStoredSession());
  // The latest token, for callbacks that outlive a render (a refresh racing a logout).
  const tokenRef = useRef(state?.token ?? null);

  const setSession = useCallback((user: PublicUser, token: string) => {
    writeStoredSession(token, user);
    tokenRef.current = token;
    setState({ user, token });
  }, []);

  const signOutLocally = useCallback(() => {
    clearStoredSession();
    tokenRef.current = null;
    setState(null);
  }, []);

  const refreshUser = useCallback(async () => {
    const token = tokenRef.current;
    if (!token) return;
    try {
      const user = await takeEarly("me", fetchMe);
      if (tokenRef.current !== token) return; // logged out meanwhile
      writeStoredUser(user);
      setState({ user, token });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) signOutLocally();
    }
  }, [signOutLocally]);

  const logout = useCallback(
    async (ended = false) => {
      try {
        if (!ended) await logoutCall();
      } catch {
        // Offline or already revoked: the local sign-out below is what matters to the user.
      }
      signOutLocally();
    },
    [signOutLocally],
  );

  const value = useMemo<SessionValue>(
    () => ({ user: state?.user ?? null, token: state?.token ?? null, setSession, refreshUser, logout }),
    [state, setSession, refreshUser, logout],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
