import { type OpenAiError, toOpenAiError } from "./errors.ts";

/** Under nginx's 60 s (proxy_read_timeout) and most proxies' idle limits. */
export const HEARTBEAT_MS = 15_000;

/** Sends one SSE event: its `data:` (JSON), under an `event:` name when given (the Responses API names its events). */
export type Write = (data: unknown, event?: string) => void;

export type StreamRun<T> = {
  /** Starts the work; `write` sends one SSE event. Resolves with what the last events need. */
  run: (write: Write) => Promise<T>;
  /** Events after the work succeeded (the finishing chunk, usage). */
  finish: (result: T, write: Write) => void;
  /** Events before the error event of a stream that cannot finish (chat completions: a last chunk with its finish_reason). */
  failed?: (write: Write) => void;
  /** Chat completions end with `data: [DONE]`; the Responses API with its response.completed event. */
  done?: boolean;
  /** How an error after the stream opened is written: chat completions' `{ error }` by default; the Responses API has its own `error` event. */
  error?: (error: OpenAiError["body"]["error"], write: Write) => void;
  heartbeatMs?: number;
  /** Fired when the client closes the open stream (not when it went away before the stream opened: see `request`). */
  abort?: AbortController;
  /**
   * The HTTP request's own signal. A client gone before the stream opened
   * (an SDK timing out before the first byte, then retrying) is not told
   * apart from a timeout: its run goes on for the retry to join (issue 31),
   * so `abort` is not fired for it.
   */
  request?: AbortSignal;
};

const encoder = new TextEncoder();

/**
 * An OpenAI-style event stream that opens lazily: the response starts with
 * its first event (for /v1, the first events written once the run started,
 * ask.ts; else a heartbeat comment after `heartbeatMs`). An error before
 * that (quota, moderation, maintenance: all immediate) is thrown,
 * so the client gets the real status in OpenAI's shape; an error after it is
 * sent as an `error` event, which the official SDKs raise. Ends with `[DONE]`
 * (chat completions), unless `done: false` (the Responses API).
 */
export async function openStream<T>(opts: StreamRun<T>): Promise<Response> {
  const pending: string[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let started = false;
  let closed = false;
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));

  const emit = (text: string) => {
    if (closed) return;
    started = true;
    if (controller) controller.enqueue(encoder.encode(text));
    else pending.push(text);
    open();
  };
  const write: Write = (data, event) => emit(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  const done = () => {
    if (opts.done !== false) emit("data: [DONE]\n\n");
  };
  const heartbeat = setInterval(() => emit(": unisson travaille\n\n"), opts.heartbeatMs ?? HEARTBEAT_MS);

  let early: { error: unknown } | null = null;
  void opts
    .run(write)
    .then(
      (result) => {
        opts.finish(result, write);
        done();
      },
      (error) => {
        if (!started) early = { error };
        else {
          opts.failed?.(write);
          const told = toOpenAiError(error).body;
          if (opts.error) opts.error(told.error, write);
          else write(told, opts.done === false ? "error" : undefined);
          done();
        }
      },
    )
    .finally(() => {
      clearInterval(heartbeat);
      closed = true;
      controller?.close();
      open();
    });

  await opened;
  if (early) throw (early as { error: unknown }).error;
  const goneBeforeOpen = opts.request?.aborted === true;
  return new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const text of pending.splice(0)) c.enqueue(encoder.encode(text));
        if (closed) c.close();
        else controller = c;
      },
      cancel() {
        clearInterval(heartbeat);
        closed = true;
        // A cancelled stream is closed already: closing it again when the run ends would throw.
        controller = null;
        if (!goneBeforeOpen) opts.abort?.abort();
      },
    }),
    { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" } },
  );
}
