import { type FakeControl, tokens } from "./control.ts";
import { answer, contentText, type FakeServer, serveFake, sse, unauthorized, type Wire } from "./serve.ts";

type MessagesBody = { model: string; stream?: boolean; system?: unknown; messages: Array<{ role: string; content: unknown }> };

function anthropicError(status: number, message: string) {
  const type = status === 401 ? "authentication_error" : status === 429 ? "rate_limit_error" : status === 529 ? "overloaded_error" : "api_error";
  return { type: "error", error: { type, message } };
}

/** Anthropic's named SSE events: message_start, content_block_*, message_delta (stop_reason, usage), message_stop. */
function messagesWire(model: string, prompt: string): Wire {
  const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`;
  const end = (reason: string, out: number) => [
    sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
    sse({ type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: out } }, "message_delta"),
    sse({ type: "message_stop" }, "message_stop"),
  ];
  return {
    start: () => [
      sse(
        {
          type: "message_start",
          message: {
            id,
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: tokens(prompt), output_tokens: 1 },
          },
        },
        "message_start",
      ),
      sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
    ],
    delta: (text) => [sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }, "content_block_delta")],
    end: (stop, out) => end(stop === "length" ? "max_tokens" : "end_turn", out),
    refusal: () => end("refusal", 1),
  };
}

/** Anthropic: POST /v1/messages with x-api-key (or `Authorization: Bearer`, which SDK 1.x sends). */
export function startAnthropicFake(control: FakeControl): FakeServer {
  return serveFake(async (req, url) => {
    if (!req.headers.get("x-api-key") && !req.headers.get("authorization")?.startsWith("Bearer "))
      return unauthorized(anthropicError(401, "x-api-key header is required"));
    if (req.method !== "POST" || url.pathname !== "/v1/messages") {
      return Response.json(anthropicError(404, "Not found"), { status: 404 });
    }
    const body = (await req.json()) as MessagesBody;
    const system = contentText(body.system);
    const messages = body.messages.map((m) => ({ role: m.role, content: contentText(m.content) }));
    const plan = control.plan("anthropic", body.model, system, messages, body.messages);
    const prompt = system + messages.map((m) => m.content).join("");
    return answer(
      req,
      plan,
      () => ({
        id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [{ type: "text", text: plan.text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: tokens(prompt), output_tokens: tokens(plan.text) },
      }),
      anthropicError,
      body.stream ? { wire: messagesWire(body.model, prompt), tokensOut: tokens } : undefined,
    );
  });
}
