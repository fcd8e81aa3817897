import type { Context } from "hono";
import { randomToken } from "../lib/tokens.ts";
import { type Asked, ask, unissonExtra, type V1Env } from "./ask.ts";
import type { CompletionResult } from "./completion.service.ts";
import { MODEL_ID } from "./messages.ts";
import type { ResponsesBody } from "./responses-body.ts";
import type { Write } from "./stream.ts";

type Status = "in_progress" | "completed" | "failed";

/** OpenAI's usage of a response, from the run's summed usage. */
function usageOf(r: CompletionResult) {
  return {
    input_tokens: r.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: r.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: r.usage.total_tokens,
  };
}

/**
 * POST /v1/responses, validated and read (responses-body.ts): the answer as
 * a `response` object with one output message, or as the Responses API's
 * event stream (response.created, the text's deltas, response.completed).
 * Same run, joining, quota and errors as chat completions (ask.ts).
 */
export async function createResponse(c: Context<V1Env>, body: ResponsesBody, asked: Asked): Promise<Response> {
  const id = `resp_${randomToken(18)}`;
  const messageId = `msg_${randomToken(18)}`;
  const createdAt = Math.floor(c.var.deps.clock.now().getTime() / 1000);
  const question = ask(c, asked, { store: body.store ?? true });

  // The web sources' citations (the Responses API's url_citation annotations) once the answer is whole.
  const annotations = (r?: CompletionResult) => (r?.citations ?? []).map((c) => ({ type: "url_citation", ...c }));
  const message = (text: string, status: Status, r?: CompletionResult) => ({
    type: "message",
    id: messageId,
    status,
    role: "assistant",
    content: status === "completed" || text ? [{ type: "output_text", text, annotations: annotations(r), logprobs: [] }] : [],
  });
  const response = (status: Status, r?: CompletionResult, error: { code: string; message: string } | null = null) => ({
    id,
    object: "response",
    created_at: createdAt,
    status,
    model: MODEL_ID,
    instructions: body.instructions ?? null,
    output: r ? [message(r.text, "completed", r)] : [],
    output_text: r?.text ?? "",
    error,
    incomplete_details: null,
    parallel_tool_calls: false,
    tool_choice: "auto",
    tools: [],
    temperature: null,
    top_p: null,
    text: { format: { type: "text" } },
    metadata: {},
    usage: r ? usageOf(r) : null,
    ...(r ? { unisson: unissonExtra(r) } : {}),
  });

  if (!body.stream) return c.json(response("completed", await question.whole()));

  let seq = 0;
  let text = "";
  const at = { output_index: 0, item_id: messageId, content_index: 0 };
  const event = (write: Write, type: string, data: Record<string, unknown>) => write({ type, sequence_number: seq++, ...data }, type);
  // The message opens with the stored answer's first piece: a run that fails never had one.
  let item = false;
  const openItem = (write: Write) => {
    if (item) return;
    item = true;
    event(write, "response.output_item.added", { output_index: 0, item: message("", "in_progress") });
    event(write, "response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [], logprobs: [] } });
  };
  return await question.stream({
    done: false,
    // Once the run started (ask.ts): nothing of the answer yet, so an error before it keeps its real status.
    opened: (write) => {
      event(write, "response.created", { response: response("in_progress") });
      event(write, "response.in_progress", { response: response("in_progress") });
    },
    // OpenAI's shape of a stream error (the AI SDK and the openai client read its code and message), then the
    // response's own end, as response.completed ends one that succeeded (the AI SDK reports the error once).
    error: (e, write) => {
      event(write, "error", { code: e.code, message: e.message, param: e.param });
      event(write, "response.failed", { response: response("failed", undefined, { code: e.code, message: e.message }) });
    },
    delta: (piece, write) => {
      openItem(write);
      text += piece;
      event(write, "response.output_text.delta", { ...at, delta: piece, logprobs: [] });
    },
    finish: (r, write) => {
      openItem(write);
      event(write, "response.output_text.done", { ...at, text, logprobs: [] });
      event(write, "response.content_part.done", { ...at, part: { type: "output_text", text, annotations: annotations(r), logprobs: [] } });
      event(write, "response.output_item.done", { output_index: 0, item: message(text, "completed", r) });
      event(write, "response.completed", { response: response("completed", r) });
    },
  });
}
