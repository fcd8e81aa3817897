import type { Deps } from "../deps.ts";
import type { LiveRun } from "./live-run.ts";
import { saveRunEvents } from "./runs.queries.ts";

/** Events so far go to the run's row at most every EVENTS_WRITE_MS (one write for a burst of answers). */
const EVENTS_WRITE_MS = 250;

/**
 * The models' texts so far go to the row at most every TEXT_CHECKPOINT_MS
 * while they are written: never each delta. A client of another server
 * process resumes from this checkpoint (the pieces after it reach that
 * server live through deps.ai.textRelay, on PostgreSQL).
 */
export const TEXT_CHECKPOINT_MS = 1_000;

/**
 * Wires a run's events to the rest of the servers: its stored events written
 * to its row (soon after each one, the texts less often), and each flush of
 * the models' texts relayed at once (PostgreSQL NOTIFY; nothing on SQLite).
 */
export function watchRunEvents(deps: Deps, live: LiveRun): void {
  const store = storeSoon(deps, live);
  live.onStoredEvent = () => store(EVENTS_WRITE_MS);
  live.onTextFlushed = (events) => {
    deps.ai.textRelay.publish(live.runId, events);
    store(TEXT_CHECKPOINT_MS);
  };
}

/** One write of the run's stored events, at the earliest of the times asked since the last one. */
function storeSoon(deps: Deps, live: LiveRun): (delayMs: number) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dueAt = Number.POSITIVE_INFINITY;
  const write = () => {
    timer = undefined;
    dueAt = Number.POSITIVE_INFINITY;
    if (!live.finished) void deps.ai.writes.run(async (tx) => await saveRunEvents(tx, live.runId, deps.ai.serverId, live.storedEvents())).catch(() => {});
  };
  return (delayMs) => {
    if (live.finished) return;
    const at = performance.now() + delayMs;
    if (at >= dueAt) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(write, delayMs);
  };
}
