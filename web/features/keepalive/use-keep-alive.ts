import { useEffect } from "react";
import { api, unwrap } from "../../lib/api.ts";
import { startKeepAlive } from "./keep-alive.ts";

/** Started when the signed-in app mounts (sign-in), stopped when it unmounts (logout). */
export function useKeepAlive(enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    return startKeepAlive({
      health: () => unwrap(api.health.$get()),
      warmup: () => unwrap(api.warmup.$get()),
    });
  }, [enabled]);
}
