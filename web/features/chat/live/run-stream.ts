import { RUN_EVENT_TYPES, type RunEventOf, type RunEventType } from "../../../../src/contracts/run-events.ts";
import type { ProcessAnswer } from "../../../lib/api-types.ts";
import { ApiError, apiError, storedToken } from "../../../lib/api.ts";

/** An event of a run: names and data from src/contracts/run-events.ts, the final answer from the route. */
export type RunEvent = RunEventOf<ProcessAnswer>;

const KNOWN = new Set<string>(RUN_EVENT_TYPES);
const known = (type: string): type is RunEventType => KNOWN.has(type);

const RETRIES = 5;

/** Parses SSE frames out of a growing text buffer; returns the rest. */
function drain(buffer: string, onEvent: (e: RunEvent) => void): string {
  let cut: number;
  while ((cut = buffer.indexOf("\n\n")) >= 0) {
    const block = buffer.slice(0, cut);
    buffer = buffer.slice(cut + 2);
    if (block.startsWith(":")) continue; // heartbeat
    const field = (name: string) =>
      block
        .split("\n")
        .find((l) => l.startsWith(`${name}: `))
        ?.slice(name.length + 2);
    const data = field("data");
    const type = field("event") ?? "message";
    // An event this page does not know (a newer server) has nothing to show here.
    if (data === undefined || !known(type)) continue;
    onEvent({ id: Number(field("id") ?? 0), type, data: JSON.parse(data) });
  }
  return buffer;
}

/**
 * Follows a run's Server-Sent Events with fetch (the session is a bearer
 * token, which EventSource cannot send). The first request starts or joins
 * the run (`POST /process`); if the connection drops, it re-attaches with
 * Last-Event-ID to `GET /conversation/{id}/events`, so nothing is lost or
 * shown twice. Resolves after the `final` or `failed` event; an HTTP error
 * before the stream (402, 409, 503) rejects with its ApiError.
 */
export async function followRun(conversationId: number, opts: { start: boolean; onEvent(e: RunEvent): void; signal: AbortSignal }): Promise<void> {
  let lastId = 0;
  let first = opts.start;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    const token = storedToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (lastId > 0) headers["last-event-id"] = String(lastId);
    let ended = false;
    try {
      const res = first
        ? await fetch("/api/unisson/process", {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ conversation_id: conversationId }),
            signal: opts.signal,
          })
        : await fetch(`/api/unisson/conversation/${conversationId}/events`, { headers, signal: opts.signal });
      if (!res.ok) throw await apiError(res);
      first = false;
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffer = drain(buffer + decoder.decode(chunk.value, { stream: true }), (e) => {
          if (e.id > 0) lastId = e.id;
          if (e.type === "final" || e.type === "failed") ended = true;
          opts.onEvent(e);
        });
      }
      if (ended) return;
    } catch (err) {
      if (opts.signal.aborted || err instanceof ApiError) throw err;
    }
    // The stream ended without its last event (a proxy, a network blip): come back where we were.
    await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
  }
  throw new Error("stream lost");
}
