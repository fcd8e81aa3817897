import { useCallback, useEffect, useState } from "react";

/** The server's offer (GET /status, /models): whether web search exists here, and whether it starts on. */
export type WebSearchOffer = { available: boolean; default: boolean };

export type WebSearchChoice = { available: boolean; on: boolean; toggle(): void };

const key = (userId: number) => `unisson:web-search:${userId}`;

/** localStorage can throw (private mode, disabled storage): the operator's default then. */
function stored(userId: number): boolean | null {
  try {
    const v = localStorage.getItem(key(userId));
    return v === null ? null : v === "1";
  } catch {
    return null;
  }
}

/**
 * The composer's « Recherche web » switch: the user's last choice, kept by
 * this browser for this account, else the operator's default
 * (WEB_SEARCH_DEFAULT); off and hidden where the server offers no search.
 */
export function useWebSearch(userId: number, offer: WebSearchOffer | undefined): WebSearchChoice {
  const [choice, setChoice] = useState<boolean | null>(() => stored(userId));
  useEffect(() => setChoice(stored(userId)), [userId]);
  const available = offer?.available ?? false;
  const on = available && (choice ?? offer?.default ?? false);
  const toggle = useCallback(() => {
    const next = !on;
    setChoice(next);
    try {
      localStorage.setItem(key(userId), next ? "1" : "0");
    } catch {
      // Not kept: the switch still applies to this page.
    }
  }, [on, userId]);
  return { available, on, toggle };
}
