import type { Sse } from "./sse.ts";

/** Each model's text as a client builds it from the `model_delta` pieces (the contract's rule: text.slice(0, from) + piece). */
export function modelTexts(list: Sse[], start: Record<string, string> = {}): Record<string, string> {
  const out = { ...start };
  for (const e of list) {
    if (e.event !== "model_delta") continue;
    const { model, from, text } = e.data as { model: string; from: number; text: string };
    const had = out[model] ?? "";
    if (from <= had.length) out[model] = had.slice(0, from) + text;
  }
  return out;
}

/** A long answer: written in many pieces by the fake providers, several lines on screen. */
export const LONG_ANSWER = Array.from({ length: 40 }, (_, i) => `Phrase ${i + 1} : Paris est la capitale de la France.`).join(" ");
