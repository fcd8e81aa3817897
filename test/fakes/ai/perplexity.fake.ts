import { type FakeControl, tokens } from "./control.ts";
import { chatCompletion, chunkWire, splitMessages } from "./openai.fake.ts";
import { answer, type FakeServer, serveFake, unauthorized } from "./serve.ts";

function perplexityError(status: number, message: string) {
  return { error: { message, type: status === 401 ? "invalid_api_key" : "api_error", code: status } };
}

/** Perplexity: POST /chat/completions (no /v1), OpenAI shape plus `citations` and `search_results` on every chunk. */
export function startPerplexityFake(control: FakeControl): FakeServer {
  return serveFake(async (req, url) => {
    if (!req.headers.get("authorization")?.startsWith("Bearer ")) return unauthorized(perplexityError(401, "Missing API key"));
    if (req.method !== "POST" || url.pathname !== "/chat/completions") {
      return Response.json(perplexityError(404, "Not found"), { status: 404 });
    }
    const body = (await req.json()) as Parameters<typeof splitMessages>[0];
    const { system, messages } = splitMessages(body);
    const plan = control.plan("perplexity", body.model, system, messages, body.messages);
    const prompt = system + messages.map((m) => m.content).join("");
    const extra = {
      citations: plan.citations,
      search_results: plan.citations.map((u, i) => ({ title: `Source ${i + 1}`, url: u, date: null })),
    };
    const wire = chunkWire(body.model, prompt, extra);
    return answer(
      req,
      plan,
      () => chatCompletion(body.model, plan.text, prompt, extra),
      perplexityError,
      body.stream ? { wire, tokensOut: tokens } : undefined,
    );
  });
}
