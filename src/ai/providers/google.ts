import { GoogleGenerativeAI } from "@google/generative-ai";
import type { Completion, CompletionRequest, ProviderClient, StopReason } from "../types.ts";

/** The turns as Gemini's contents, the pictures added to the last user turn as `inlineData` parts. */
function contentsOf(req: CompletionRequest) {
  return req.messages.map((m, i) => {
    const parts: Array<{ text: string } | { inlineData: { mimeType: string; data: string } }> = [{ text: m.content }];
    if (i === req.messages.length - 1 && m.role === "user")
      for (const image of req.images ?? []) parts.push({ inlineData: { mimeType: image.mime, data: image.base64 } });
    return { role: m.role === "assistant" ? "model" : "user", parts };
  });
}

const REFUSALS = new Set(["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "RECITATION"]);

function stopOf(reason: string | undefined, blocked: boolean): StopReason {
  if (blocked || (reason && REFUSALS.has(reason))) return "refusal";
  if (reason === "MAX_TOKENS") return "length";
  if (reason === undefined) return "incomplete";
  return reason === "STOP" ? "end" : "other";
}

/**
 * The signal as the SDK is given it. The SDK adds its "abort" listener after
 * an await, without looking whether the signal was aborted already: an abort
 * in between (a run dropped or stopped as its models are asked) was lost and
 * the request went on until the model answered. A listener added once the
 * signal is aborted is called at once.
 */
function toldEvenIfLate(signal: AbortSignal): AbortSignal {
  return new Proxy(signal, {
    get(target, key) {
      if (key === "addEventListener")
        return (type: string, listener: () => void, options?: AddEventListenerOptions) => {
          if (type === "abort" && target.aborted) queueMicrotask(listener);
          else target.addEventListener(type, listener, options);
        };
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Gemini Pro, streamed (`:streamGenerateContent?alt=sse`). The SDK appends
 * `/v1beta/models/...` to `baseUrl` itself. No `timeout` option here: the SDK
 * never clears that timer; the engine's signal abandons the request instead.
 * The chunks' `text()` helper throws on a blocked answer, so parts are read directly.
 */
export function createGoogleClient(opts: { apiKey: string; baseUrl?: string }): ProviderClient {
  const sdk = new GoogleGenerativeAI(opts.apiKey);
  return {
    provider: "google",
    async stream(modelId, req, signal, onText): Promise<Completion> {
      const model = sdk.getGenerativeModel({ model: modelId, systemInstruction: req.system }, opts.baseUrl ? { baseUrl: opts.baseUrl } : undefined);
      const res = await model.generateContentStream(
        {
          contents: contentsOf(req),
          generationConfig: { maxOutputTokens: req.maxTokens },
        },
        { signal: toldEvenIfLate(signal) },
      );
      // The SDK also aggregates the stream into `response`; its rejection is the stream's own error, read below.
      res.response.catch(() => {});
      let text = "";
      let reason: string | undefined;
      let blocked = false;
      let tokensIn: number | null = null;
      let tokensOut: number | null = null;
      for await (const chunk of res.stream) {
        const candidate = chunk.candidates?.[0];
        const delta = (candidate?.content?.parts ?? []).map((p) => p.text ?? "").join("");
        if (delta) {
          text += delta;
          onText(delta);
        }
        if (candidate?.finishReason) reason = candidate.finishReason;
        if (chunk.promptFeedback?.blockReason) blocked = true;
        if (chunk.usageMetadata) {
          tokensIn = chunk.usageMetadata.promptTokenCount ?? tokensIn;
          tokensOut = chunk.usageMetadata.candidatesTokenCount ?? tokensOut;
        }
      }
      return { text, tokensIn, tokensOut, citations: [], stop: stopOf(reason, blocked) };
    },
  };
}
