import { type FakeControl, tokens } from "./control.ts";
import { answer, contentText, type FakeServer, serveFake, sse, unauthorized, type Wire } from "./serve.ts";

type ChatBody = { model: string; stream?: boolean; messages: Array<{ role: string; content: unknown }> };

function openAiError(status: number, message: string) {
  const type = status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_error" : "server_error";
  return { error: { message, type, param: null, code: status === 401 ? "invalid_api_key" : null } };
}

/** The chat completions body of OpenAI (and of Perplexity, plus `citations`). */
export function chatCompletion(model: string, text: string, prompt: string, extra: Record<string, unknown> = {}) {
  const promptTokens = tokens(prompt);
  const completionTokens = tokens(text);
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    ...extra,
  };
}

/**
 * `chat.completion.chunk` frames as OpenAI streams them (Mistral and Perplexity
 * too, with their extras): a role delta, content deltas, the finish reason,
 * then the usage chunk (`stream_options.include_usage`) and `[DONE]`.
 */
export function chunkWire(model: string, prompt: string, extra: Record<string, unknown> = {}): Wire {
  const id = `chatcmpl-${crypto.randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], more: Record<string, unknown> = {}) =>
    sse({ id, object: "chat.completion.chunk", created, model, choices, ...extra, ...more });
  const usage = (out: number) => ({ prompt_tokens: tokens(prompt), completion_tokens: out, total_tokens: tokens(prompt) + out });
  return {
    start: () => [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])],
    delta: (text) => [chunk([{ index: 0, delta: { content: text }, finish_reason: null }])],
    end: (stop, out) => [
      chunk([{ index: 0, delta: {}, finish_reason: stop === "length" ? "length" : "stop" }]),
      chunk([], { usage: usage(out) }),
      "data: [DONE]\n\n",
    ],
  };
}

/** Splits an OpenAI-style message list into the system text and the rest, for the control. */
export function splitMessages(body: ChatBody) {
  const system = body.messages
    .filter((m) => m.role === "system")
    .map((m) => contentText(m.content))
    .join("\n");
  const messages = body.messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: contentText(m.content) }));
  return { system, messages };
}

/** OpenAI: POST /v1/chat/completions (JSON or streamed) and POST /v1/moderations, Bearer key. */
export function startOpenAiFake(control: FakeControl): FakeServer {
  return serveFake(async (req, url) => {
    if (!req.headers.get("authorization")?.startsWith("Bearer ")) return unauthorized(openAiError(401, "Missing API key"));
    if (req.method === "POST" && url.pathname === "/v1/moderations") {
      const body = (await req.json()) as { model: string; input: string };
      control.moderations.push({ model: body.model, input: body.input });
      const verdict = control.moderation;
      const categories = Object.fromEntries(
        ["hate", "harassment", "self-harm", "sexual", "sexual/minors", "violence", "illicit"].map((c) => [c, verdict.categories.includes(c)]),
      );
      const scores = Object.fromEntries(Object.entries(categories).map(([k, v]) => [k, v ? 0.99 : 0.001]));
      const plan = { failure: control.moderationFail, latencyMs: 0, durationMs: 0, text: "" };
      return answer(
        req,
        plan,
        () => ({
          id: `modr-${crypto.randomUUID()}`,
          model: body.model,
          results: [{ flagged: verdict.flagged, categories, category_scores: scores, category_applied_input_types: {}, input: body.input }],
        }),
        openAiError,
      );
    }
    if (req.method === "POST" && url.pathname === "/v1/chat/completions") {
      const body = (await req.json()) as ChatBody;
      const { system, messages } = splitMessages(body);
      const plan = control.plan("openai", body.model, system, messages, body.messages);
      plan.call.apiKey = req.headers.get("authorization")!.slice("Bearer ".length);
      const prompt = system + messages.map((m) => m.content).join("");
      const wire = chunkWire(body.model, prompt);
      // OpenAI's native refusal: a `refusal` delta instead of content.
      wire.refusal = () => [
        sse({
          id: "chatcmpl-r",
          object: "chat.completion.chunk",
          created: 0,
          model: body.model,
          choices: [{ index: 0, delta: { refusal: "I'm sorry, I can't help with that." }, finish_reason: "stop" }],
        }),
        "data: [DONE]\n\n",
      ];
      return answer(req, plan, () => chatCompletion(body.model, plan.text, prompt), openAiError, body.stream ? { wire, tokensOut: tokens } : undefined);
    }
    return Response.json(openAiError(404, `Unknown path ${url.pathname}`), { status: 404 });
  });
}
