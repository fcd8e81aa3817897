import type { CompletionRequest, ImageInput } from "../types.ts";

/**
 * The request's turns, the last user turn's content replaced by what
 * `parts(text, images)` makes of it when pictures go with it (each adapter
 * writes its own SDK's image format); every other turn keeps its text.
 */
export function turnsWithImages<P>(
  req: CompletionRequest,
  parts: (text: string, images: ImageInput[]) => P,
): Array<{ role: "user" | "assistant"; content: string | P }> {
  const turns: Array<{ role: "user" | "assistant"; content: string | P }> = req.messages.map((m) => ({ role: m.role, content: m.content }));
  const last = req.messages.at(-1);
  if (req.images?.length && last?.role === "user") turns[turns.length - 1] = { role: "user", content: parts(last.content, req.images) };
  return turns;
}

export const dataUrl = (image: ImageInput) => `data:${image.mime};base64,${image.base64}`;
