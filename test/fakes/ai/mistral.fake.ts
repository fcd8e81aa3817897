import { type FakeControl, tokens } from "./control.ts";
import { chunkWire, splitMessages } from "./openai.fake.ts";
import { answer, type FakeServer, serveFake, unauthorized } from "./serve.ts";

function mistralError(status: number, message: string) {
  return { object: "error", message, type: status === 401 ? "invalid_request_error" : "api_error", param: null, code: String(status) };
}

/** Mistral: POST /v1/chat/completions, Bearer key, its own (snake_case) response shape; `stream: true` sends chunks. */
export function startMistralFake(control: FakeControl): FakeServer {
  return serveFake(async (req, url) => {
    if (!req.headers.get("authorization")?.startsWith("Bearer ")) return unauthorized(mistralError(401, "Unauthorized"));
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return Response.json(mistralError(404, "Not found"), { status: 404 });
    }
    const body = (await req.json()) as Parameters<typeof splitMessages>[0] & { stream?: boolean };
    const { system, messages } = splitMessages(body);
    const plan = control.plan("mistral", body.model, system, messages, body.messages);
    const prompt = system + messages.map((m) => m.content).join("");
    return answer(
      req,
      plan,
      () => ({
        id: crypto.randomUUID().replaceAll("-", ""),
        object: "chat.completion",
        model: body.model,
        created: Math.floor(Date.now() / 1000),
        choices: [{ index: 0, message: { role: "assistant", content: plan.text, tool_calls: null }, finish_reason: "stop" }],
        usage: { prompt_tokens: tokens(prompt), completion_tokens: tokens(plan.text), total_tokens: tokens(prompt) + tokens(plan.text) },
      }),
      mistralError,
      body.stream ? { wire: chunkWire(body.model, prompt), tokensOut: tokens } : undefined,
    );
  });
}
