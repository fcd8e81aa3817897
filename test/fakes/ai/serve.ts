import type { Failure } from "./control.ts";

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

/**
 * Answers one scripted call: the failure in the provider's own error shape,
 * a request held open until the client aborts ("hang"), a 200 whose body is
 * not JSON, or the success body after the latency.
 */
export async function answer(
  req: Request,
  plan: { failure: Failure | null; latencyMs: number },
  ok: () => unknown,
  error: (status: number, message: string) => unknown,
): Promise<Response> {
  if (plan.failure === "hang") {
    await new Promise<void>((resolve) => req.signal.addEventListener("abort", () => resolve()));
    return new Response(null, { status: 499 });
  }
  await delay(plan.latencyMs, req.signal);
  if (plan.failure === "invalid-json") return new Response("{ ceci n'est pas du JSON", { headers: { "content-type": "application/json" } });
  if (typeof plan.failure === "number") {
    const message = plan.failure === 401 ? "Invalid API key" : plan.failure === 429 ? "Rate limit exceeded" : "Internal server error";
    return Response.json(error(plan.failure, message), { status: plan.failure });
  }
  return Response.json(ok());
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
