import type { Deps } from "../deps.ts";
import { type ErrorCode, errorMessage } from "../lib/errors.ts";
import { answerOf } from "./final-processing.ts";
import { findRunById, latestRun, type RunRow } from "./runs.queries.ts";
import { ownedConversation } from "./owned-conversation.ts";
import { type RunEvent, TERMINAL } from "./live-run.ts";
import { abandonedFailedEvent } from "./run-ending.ts";

const encoder = new TextEncoder();

function frame(e: RunEvent): Uint8Array {
  return encoder.encode(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
}

/**
 * A model's text piece relayed from the server carrying the run out: sent
 * without an id, since events stored before it may not be readable here yet
 * (a client's Last-Event-ID must never skip them). Its `from` places it.
 */
function relayedFrame(e: RunEvent): Uint8Array {
  return encoder.encode(`event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
}

/** Last-Event-ID as the browser (or a client) sends it back; anything else replays from the start. */
export function lastEventId(header: string | undefined): number {
  const n = Number(header);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/**
 * The Server-Sent Events of a run: the events after `afterId`, then, if the
 * run is still going in this process, every new one until it ends. A comment
 * line every `heartbeatMs` keeps proxies from closing a quiet stream. A run
 * that is over replays its stored events (its text arrives with `final`).
 */
export function runStream(deps: Deps, run: RunRow | undefined, afterId: number): ReadableStream<Uint8Array> {
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        stop();
        controller.close();
      };
      const send = (e: RunEvent) => {
        if (closed) return;
        controller.enqueue(frame(e));
        if (TERMINAL.has(e.type)) close();
      };
      const live = run ? deps.ai.live.get(run.id) : undefined;
      if (!run) {
        send({ id: 0, type: "failed", data: { code: "NOTHING_TO_PROCESS", detail: errorMessage("NOTHING_TO_PROCESS"), idle: true } });
        return;
      }
      const heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(": ping\n\n"));
      }, deps.ai.heartbeatMs);
      if (live) {
        const unsubscribe = live.follow(afterId, send);
        stop = () => {
          clearInterval(heartbeat);
          unsubscribe();
        };
        if (live.finished) close();
        return;
      }
      // A finished run, or one another server process runs: its stored events, read again whenever the run's
      // writer announces a change (src/db/run-wakeups.ts) and every `rereadMs` in any case, until it ends.
      let seen = afterId;
      // The models whose start this client knows: a relayed text piece of a model it does not know yet would be lost on it.
      const started = new Set<string>();
      const replay = async (row: RunRow | undefined) => {
        for (const e of (row?.events ?? []) as RunEvent[]) {
          if (e.type === "run_started") for (const m of e.data.models as string[]) started.add(m);
          if (e.id <= seen) continue;
          seen = e.id;
          send(e.type === "final" && row?.resultMessageId ? { ...e, data: await answerOf(deps, row) } : e);
        }
        // An ended run always ends the stream with its outcome, even for a client that claims to have seen past it
        // (a row ended before terminal events were numbered above every id sent live): never an empty 200 it reconnects to forever.
        if (row && row.status !== "running" && !closed) send(await terminalOf(deps, row, seen));
        if (row?.status !== "running") close();
      };
      // One read at a time, in order: a wake-up during a read asks for one more read after it.
      let reading = false;
      let again = false;
      const reread = () => {
        if (closed) return;
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        // A read that fails (the database closing at shutdown) ends the stream; the client resumes with Last-Event-ID.
        findRunById(deps.db, run.id)
          .then(replay)
          .catch(() => close())
          .finally(() => {
            reading = false;
            if (again) {
              again = false;
              reread();
            }
          });
      };
      stop = () => clearInterval(heartbeat);
      if (run.status === "running") {
        const unfollow = deps.ai.wakeups.follow(run.id, reread);
        const unrelay = deps.ai.textRelay.follow(run.id, (e) => {
          if (!closed && started.has(e.data.model as string)) controller.enqueue(relayedFrame(e));
        });
        const poll = setInterval(reread, deps.ai.wakeups.rereadMs);
        stop = () => {
          clearInterval(heartbeat);
          clearInterval(poll);
          unfollow();
          unrelay();
        };
      }
      await replay(run);
      // Events stored between the caller's read and the follow above would wake nobody: read once more.
      if (run.status === "running") reread();
    },
    cancel() {
      stop();
    },
  });
}

/** The stored terminal event of an ended run (renumbered after `seen` if needed), or one made from its row. */
async function terminalOf(deps: Deps, row: RunRow, seen: number): Promise<RunEvent> {
  const stored = ((row.events ?? []) as RunEvent[]).findLast((e) => TERMINAL.has(e.type));
  const id = Math.max(seen + 1, stored?.id ?? 0);
  if (row.status === "done" && row.resultMessageId) return { id, type: "final", data: await answerOf(deps, row) };
  if (stored?.type === "failed") return { ...stored, id };
  const made = abandonedFailedEvent(row.events as RunEvent[] | null, (row.error as ErrorCode | null) ?? "SERVICE_UNAVAILABLE");
  return { ...made, id: Math.max(seen + 1, made.id) };
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/** GET /conversation/{id}/events: the conversation's latest run, ownership checked. */
export async function conversationEvents(deps: Deps, userId: number, conversationId: number, afterId: number): Promise<ReadableStream<Uint8Array>> {
  const conversation = await ownedConversation(deps, userId, conversationId);
  return runStream(deps, await latestRun(deps.db, conversation.id), afterId);
}
