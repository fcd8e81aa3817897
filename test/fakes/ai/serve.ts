import type { Failure, Pause, RecordedCall } from "./control.ts";

export type FakeServer = { url: string; stop(): Promise<void> };

/** A fake on 127.0.0.1, port 0 (never a fixed port, never off the loopback). */
export function serveFake(handler: (req: Request, url: URL) => Promise<Response>): FakeServer {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    fetch: async (req) => {
      try {
        return await handler(req, new URL(req.url));
      } catch (e) {
        return Response.json({ error: { message: String(e) } }, { status: 500 });
      }
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

/** Waits like a slow provider; stops early when the client gave up. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

export type Plan = {
  failure: Failure | null;
  latencyMs: number;
  durationMs: number;
  text: string;
  /** How many pieces the streamed text is cut into (12 when not said). */
  pieces?: number;
  retryAfterS?: number;
  pause?: Pause;
  /** Nothing is sent until this settles (ModelScript.clarificationHold). */
  hold?: Promise<unknown>;
  /** The recorded call: marked aborted when the client goes away before the answer ended. */
  call?: RecordedCall;
};

/** Marks the call aborted if the client leaves before `ended()` is called; returns `ended`. */
function watchAbort(req: Request, plan: Plan): () => void {
  let ended = false;
  req.signal.addEventListener("abort", () => {
    if (!ended && plan.call) plan.call.abortedAt = performance.now();
  });
  return () => {
    ended = true;
  };
}

/** How one provider writes a stream on the wire: SSE frames, each already `data: ...\n\n` (and `event:` where it names them). */
export type Wire = {
  start(): string[];
  delta(text: string): string[];
  end(stop: "end" | "length" | "refusal", tokensOut: number): string[];
  /** The provider's native refusal, when it has one (else the refusal is a declining text). */
  refusal?(): string[];
};

const never = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));

/** The failures that are an HTTP answer rather than a stream; null when the call streams. */
async function refuseOrHang(req: Request, plan: Plan, error: (status: number, message: string, retryAfterS?: number) => unknown): Promise<Response | null> {
  if (plan.failure === "hang") {
    await never(req.signal);
    return new Response(null, { status: 499 });
  }
  if (typeof plan.failure === "number") {
    await delay(plan.latencyMs, req.signal);
    const message =
      plan.failure === 401 || plan.failure === 403
        ? "Invalid API key"
        : plan.failure === 429
          ? "Rate limit exceeded"
          : plan.failure === 400
            ? "Bad request"
            : "Internal server error";
    const headers: Record<string, string> = plan.failure === 429 && plan.retryAfterS !== undefined ? { "retry-after": String(plan.retryAfterS) } : {};
    return Response.json(error(plan.failure, message, plan.retryAfterS), { status: plan.failure, headers });
  }
  return null;
}

/** The text in about 12 pieces, cut on spaces, so that deltas look like tokens. */
export function pieces(text: string, count = 12): string[] {
  const words = text.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / count));
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(""));
  return out;
}

/**
 * Answers one scripted call, streamed (`stream: true`) in the provider's own
 * SSE format or as one JSON body, with the scripted fault: see Failure.
 */
export async function answer(
  req: Request,
  plan: Plan,
  ok: () => unknown,
  error: (status: number, message: string, retryAfterS?: number) => unknown,
  stream?: { wire: Wire; tokensOut: (text: string) => number },
): Promise<Response> {
  const ended = watchAbort(req, plan);
  const refused = await refuseOrHang(req, plan, error);
  if (refused) {
    ended();
    return refused;
  }
  if (plan.hold) await Promise.race([plan.hold, never(req.signal)]);
  if (!stream) {
    await delay(plan.latencyMs, req.signal);
    ended();
    if (plan.failure === "invalid-json") return new Response("{ ceci n'est pas du JSON", { headers: { "content-type": "application/json" } });
    return Response.json(ok());
  }
  const { wire } = stream;
  const encoder = new TextEncoder();
  const failure = plan.failure;
  // Without a native refusal signal (Mistral, Perplexity), a model refuses in words.
  const declines = failure === "refusal" && !wire.refusal;
  const text = declines
    ? "Je suis désolé, je ne peux pas répondre à cette demande."
    : failure === "empty" || failure === "refusal"
      ? ""
      : failure === "length"
        ? plan.text.slice(0, Math.ceil(plan.text.length / 2))
        : plan.text;
  const parts = pieces(text, plan.pieces);
  const gap = parts.length > 1 ? plan.durationMs / (parts.length - 1) : 0;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (frames: string[]) => {
        if (!req.signal.aborted) controller.enqueue(encoder.encode(frames.join("")));
      };
      try {
        send(wire.start());
        await delay(plan.latencyMs, req.signal);
        if (failure === "invalid-json") {
          send(["data: { ceci n'est pas du JSON\n\n"]);
          controller.close();
          return;
        }
        if (failure === "refusal" && wire.refusal) {
          send(wire.refusal());
          controller.close();
          return;
        }
        for (const [i, part] of parts.entries()) {
          if (i > 0) await delay(gap, req.signal);
          if (plan.pause && i === plan.pause.afterPieces) await Promise.race([plan.pause.until, never(req.signal)]);
          if (req.signal.aborted) return;
          send(wire.delta(part));
          if (failure === "stall") return void (await never(req.signal));
          // The body ends mid-text, with no finish marker: what a client sees when a proxy or the provider drops the stream.
          if (failure === "cut" && i >= Math.floor((parts.length - 1) / 2)) return controller.close();
        }
        send(wire.end(failure === "length" ? "length" : "end", stream.tokensOut(text)));
        ended();
        controller.close();
      } catch {
        // The client went away: nothing more to write.
      }
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export function unauthorized(body: unknown): Response {
  return Response.json(body, { status: 401 });
}

/** Text of an OpenAI/Mistral-style message content (string or parts). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

export const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
