/**
 * The shape of a JSON text counted without parsing it: how many objects and
 * arrays it holds, and how deep they nest. JSON.parse allocates every one of
 * them (a few megabytes of `[]` are millions of arrays), so a body is
 * measured before it is parsed. Strings are skipped with indexOf (native),
 * so a long base64 file costs little; a malformed text is left to JSON.parse.
 */
export type JsonShape = { containers: number; depth: number };

/** Stops counting once `limits` are passed: the caller refuses the body anyway. */
export function jsonShape(text: string, limits: JsonShape): JsonShape {
  let containers = 0;
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      i = stringEnd(text, i);
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      containers++;
      depth++;
      if (depth > deepest) deepest = depth;
      if (containers > limits.containers || deepest > limits.depth) break;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
      depth--;
    }
  }
  return { containers, depth: deepest };
}

/** The index of the quote closing the string opened at `open` (an escaped quote is skipped), or the text's end. */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
