import { useCallback, useRef, useState } from "react";
import { api, unwrap } from "../../../lib/api.ts";

/** An ask being decided by POST /chat: the name the server knows it by, and whether the user stopped it. */
export type PendingAsk = { id: string; stopped: boolean };

/** 24 hex characters; getRandomValues, unlike randomUUID, works on a page served over plain HTTP too. */
function newAskId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * « Arrêter » from the moment the question is sent (issue 43): while POST
 * /chat decides (the clarifier), the run it started has no conversation id
 * on the page yet; the ask is stopped by its `ask_id` (POST /chat/stop).
 * A stop that comes too late (409: /chat answered meanwhile) is carried out
 * by the caller on the run, once /chat's answer names it (`stopped`).
 */
export function useAskStop() {
  const pending = useRef<PendingAsk | null>(null);
  const [active, setActive] = useState(false);
  const [stopping, setStopping] = useState(false);

  const begin = useCallback((): PendingAsk => {
    const ask = { id: newAskId(), stopped: false };
    pending.current = ask;
    setActive(true);
    return ask;
  }, []);

  const end = useCallback(() => {
    pending.current = null;
    setActive(false);
    setStopping(false);
  }, []);

  const stop = useCallback(async () => {
    const ask = pending.current;
    if (!ask || ask.stopped) return;
    ask.stopped = true;
    setStopping(true);
    // A 409 (or a lost request) is no error to show: /chat's answer says what became of the ask.
    await unwrap(api.unisson.chat.stop.$post({ json: { ask_id: ask.id } })).catch(() => {});
  }, []);

  return { active, stopping, begin, end, stop };
}
