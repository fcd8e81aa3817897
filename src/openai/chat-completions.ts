import type { Context } from "hono";
import { randomToken } from "../lib/tokens.ts";
import { type Asked, ask, SYSTEM_FINGERPRINT, unissonExtra, type V1Env } from "./ask.ts";
import { type CompletionBody, MODEL_ID } from "./messages.ts";
import type { CompletionResult } from "./completion.service.ts";

/** POST /v1/chat/completions, validated and read (messages.ts): the answer as a chat.completion, or as chunks. */
export async function chatCompletion(c: Context<V1Env>, body: CompletionBody, asked: Asked): Promise<Response> {
  const id = `chatcmpl-${randomToken(18)}`;
  const created = Math.floor(c.var.deps.clock.now().getTime() / 1000);
  const head = { id, created, model: MODEL_ID, system_fingerprint: SYSTEM_FINGERPRINT };
  const question = ask(c, asked);

  if (!body.stream) {
    const r = await question.whole();
    return c.json({
      ...head,
      object: "chat.completion",
      choices: [
        { index: 0, message: { role: "assistant", content: r.text, refusal: null, annotations: annotationsOf(r) }, finish_reason: "stop", logprobs: null },
      ],
      usage: r.usage,
      unisson: unissonExtra(r),
    });
  }

  // "error" (as Mistral's API says it): a stream that cannot finish still ends its choice, before the error event.
  const chunk = (delta: Record<string, unknown>, finish: "stop" | "error" | null) => ({
    ...head,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  return await question.stream({
    // OpenAI's first chunk too: the role, no text yet (the answer comes once stored and checked, ask.ts).
    opened: (write) => write(chunk({ role: "assistant", content: "" }, null)),
    delta: (text, write) => write(chunk({ content: text }, null)),
    finish: (r, write) => {
      // The sources' citations come with the last chunk, once the text they point into is whole.
      write({ ...chunk(r.citations.length > 0 ? { annotations: annotationsOf(r) } : {}, "stop"), unisson: unissonExtra(r) });
      if (body.stream_options?.include_usage) write({ ...chunk({}, null), choices: [], usage: r.usage });
    },
    failed: (write) => write(chunk({}, "error")),
  });
}

/** Chat completions' `annotations`: each web source as a `url_citation` (the openai SDK's ChatCompletionMessage.Annotation). */
function annotationsOf(r: CompletionResult) {
  return r.citations.map((c) => ({ type: "url_citation" as const, url_citation: c }));
}
