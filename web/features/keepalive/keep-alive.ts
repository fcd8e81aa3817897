/** docs/PRODUCT.md#keep-alive: health every 6 minutes; after 30 minutes without activity the interval triples. */
export const PING_MS = 6 * 60_000;
export const IDLE_AFTER_MS = 30 * 60_000;
export const IDLE_FACTOR = 3;
const ACTIVITY_EVENTS = ["pointerdown", "keydown", "scroll", "touchstart"] as const;

export type KeepAliveDeps = {
  health(): Promise<unknown>;
  warmup(): Promise<unknown>;
  now?: () => number;
  target?: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
  log?: (what: string, err: unknown) => void;
};

/**
 * Keeps the server warm while someone is signed in: a warmup at start and
 * whenever the tab comes back into view, a cheap health ping on a timer that
 * slows down when the user is away. Failures are only logged (docs/PRODUCT.md#keep-alive).
 * Returns stop(), called at logout.
 */
export function startKeepAlive(deps: KeepAliveDeps): () => void {
  const now = deps.now ?? (() => Date.now());
  const target = deps.target ?? document;
  const log = deps.log ?? ((what, err) => console.warn(what, err));
  let lastActivity = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let slow = false;
  let stopped = false;

  const delay = () => (now() - lastActivity >= IDLE_AFTER_MS ? PING_MS * IDLE_FACTOR : PING_MS);
  function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    const d = delay();
    slow = d > PING_MS;
    timer = setTimeout(tick, d);
  }
  function tick() {
    deps.health().catch((err) => log("keep-alive health", err));
    schedule();
  }
  function warmup() {
    deps.warmup().catch((err) => log("keep-alive warmup", err));
  }
  function onActivity() {
    lastActivity = now();
    if (slow) schedule(); // back from idle: return to the normal rhythm at once
  }
  function onVisibility() {
    if (target.visibilityState === "visible") {
      onActivity();
      warmup();
    }
  }

  for (const e of ACTIVITY_EVENTS) target.addEventListener(e, onActivity, { passive: true });
  target.addEventListener("visibilitychange", onVisibility);
  warmup();
  schedule();

  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const e of ACTIVITY_EVENTS) target.removeEventListener(e, onActivity);
    target.removeEventListener("visibilitychange", onVisibility);
  };
}
