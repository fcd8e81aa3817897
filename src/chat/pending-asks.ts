import type { Deps } from "../deps.ts";

/**
 * « Arrêter » while the clarifier decides (issue 43). POST /chat with
 * `start_run` has started the run, but the page knows neither the
 * conversation (a first question makes it) nor the run until /chat answers:
 * it names its ask with `ask_id` instead, and POST /chat/stop finds it here.
 * In the memory of the process answering /chat (the ask lives as long as
 * that request): a stop that reaches another server finds nothing (409), and
 * the page then stops the run by its conversation once /chat has answered.
 */
type Ask = { stop: () => void };

// Module state: one registry per app (its AI state), as the runs in memory are; an ask lives only while its /chat does.
const registries = new WeakMap<object, Map<string, Ask>>();

function registry(deps: Deps): Map<string, Ask> {
  let asks = registries.get(deps.ai);
  if (!asks) registries.set(deps.ai, (asks = new Map()));
  return asks;
}

const keyOf = (userId: number, askId: string) => `${userId}:${askId}`;

/** Holds the ask while /chat decides: `stopped` settles when the user stops it; `release` once /chat answers. */
export function holdAsk(deps: Deps, userId: number, askId: string): { stopped: Promise<void>; release: () => void } {
  const asks = registry(deps);
  const key = keyOf(userId, askId);
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const ask = { stop };
  asks.set(key, ask);
  return { stopped, release: () => asks.get(key) === ask && asks.delete(key) };
}

/** POST /chat/stop: true when the user's ask was still being decided (it is stopped), false when there is none. */
export function stopAsk(deps: Deps, userId: number, askId: string): boolean {
  const key = keyOf(userId, askId);
  const ask = registry(deps).get(key);
  if (!ask) return false;
  registry(deps).delete(key);
  ask.stop();
  return true;
}
