import { useContext } from "react";
import { SessionContext, type SessionValue } from "./session-context.tsx";

export type { SessionValue } from "./session-context.tsx";

/** The signed-in user and the session actions; only inside <SessionProvider>. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside SessionProvider");
  return value;
}

/** For screens that only render signed in (the app shell, the admin panel). */
export function useSignedInUser() {
  const s = useSession();
  if (!s.user) throw new Error("no signed-in user");
  return { ...s, user: s.user };
}
