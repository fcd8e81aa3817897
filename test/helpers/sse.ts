/** One Server-Sent Event as a client reads it; comments (heartbeats) are counted apart. */
export type Sse = { id: number | null; event: string; data: any };

/**
 * Reads an SSE response to its end (or until `stopAfter` says so), like a
 * browser would. `dropAfterSilenceMs` behaves like a reverse proxy that closes
 * an upstream silent for that long: the read then throws.
 */
export async function readSse(
  res: Response,
  opts: { stopAfter?: (e: Sse, all: Sse[]) => boolean; dropAfterSilenceMs?: number } = {},
): Promise<{ events: Sse[]; comments: number }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: Sse[] = [];
  let comments = 0;
  let buffer = "";
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = opts.dropAfterSilenceMs
      ? new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`connexion fermée après ${opts.dropAfterSilenceMs} ms de silence`)), opts.dropAfterSilenceMs);
        })
      : null;
    const chunk = await (silence ? Promise.race([reader.read(), silence]) : reader.read()).finally(() => clearTimeout(timer));
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (block.startsWith(":")) {
        comments++;
        continue;
      }
      const field = (name: string) =>
        block
          .split("\n")
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      const e = { id: field("id") ? Number(field("id")) : null, event: field("event") ?? "message", data: JSON.parse(field("data") ?? "null") };
      events.push(e);
      if (opts.stopAfter?.(e, events)) {
        await reader.cancel();
        return { events, comments };
      }
    }
  }
  return { events, comments };
}
