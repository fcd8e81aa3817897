import { type FakeControl, tokens } from "./control.ts";
import { answer, type FakeServer, serveFake, sse, unauthorized, type Wire } from "./serve.ts";

type GenerateBody = {
  contents: Array<{ role?: string; parts: Array<{ text?: string }> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> } | string;
};

/** Gemini says how long to wait in the body (google.rpc.RetryInfo), which its SDK exposes as `errorDetails`. */
function geminiError(status: number, message: string, retryAfterS?: number) {
  const s = status === 401 ? "UNAUTHENTICATED" : status === 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL";
  const details = retryAfterS !== undefined ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterS}s` }] : [];
  return { error: { code: status, message, status: s, details } };
}

const partsText = (parts: Array<{ text?: string }> | undefined) => (parts ?? []).map((p) => p.text ?? "").join("");

/** `streamGenerateContent?alt=sse`: each frame a whole GenerateContentResponse; the last carries finishReason and usage. */
function geminiWire(model: string, prompt: string): Wire {
  const frame = (text: string, finishReason?: string, out?: number) =>
    sse({
      candidates: [{ content: { parts: [{ text }], role: "model" }, ...(finishReason ? { finishReason } : {}), index: 0 }],
      ...(out !== undefined ? { usageMetadata: { promptTokenCount: tokens(prompt), candidatesTokenCount: out, totalTokenCount: tokens(prompt) + out } } : {}),
      modelVersion: model,
    });
  return {
    start: () => [],
    delta: (text) => [frame(text)],
    end: (stop, out) => [frame("", stop === "length" ? "MAX_TOKENS" : "STOP", out)],
    refusal: () => [
      sse({
        candidates: [{ finishReason: "SAFETY", index: 0, safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH" }] }],
        modelVersion: model,
      }),
    ],
  };
}

/** Gemini: POST /v1beta/models/{model}:generateContent or :streamGenerateContent?alt=sse, with x-goog-api-key. */
export function startGeminiFake(control: FakeControl): FakeServer {
  return serveFake(async (req, url) => {
    if (!req.headers.get("x-goog-api-key")) return unauthorized(geminiError(401, "API key not valid."));
    const match = url.pathname.match(/^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/);
    if (req.method !== "POST" || !match) return Response.json(geminiError(404, "Not found"), { status: 404 });
    const model = decodeURIComponent(match[1]!);
    const body = (await req.json()) as GenerateBody;
    const system = typeof body.systemInstruction === "string" ? body.systemInstruction : partsText(body.systemInstruction?.parts);
    const messages = body.contents.map((c) => ({ role: c.role === "model" ? "assistant" : "user", content: partsText(c.parts) }));
    const plan = control.plan("google", model, system, messages, body.contents);
    const prompt = system + messages.map((m) => m.content).join("");
    return answer(
      req,
      plan,
      () => ({
        candidates: [{ content: { parts: [{ text: plan.text }], role: "model" }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: tokens(prompt), candidatesTokenCount: tokens(plan.text), totalTokenCount: tokens(prompt) + tokens(plan.text) },
        modelVersion: model,
      }),
      geminiError,
      match[2] === "streamGenerateContent" ? { wire: geminiWire(model, prompt), tokensOut: tokens } : undefined,
    );
  });
}
