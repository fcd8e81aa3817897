import { brotliCompressSync, constants } from "node:zlib";
import type { Context } from "hono";
import { parseAccept } from "hono/utils/accept";

export type Encoding = "br" | "gzip";

/** JSON smaller than this goes as it is: compressing it saves less than its own headers. */
export const JSON_COMPRESS_THRESHOLD = 1024;

/**
 * The best of `offered` the client accepts (Accept-Encoding with q-values;
 * q=0 refuses, `*` stands for the rest), Brotli first on a tie.
 */
export function pickEncoding(header: string | undefined, offered: readonly Encoding[]): Encoding | undefined {
  if (!header) return undefined;
  const accepts = parseAccept(header);
  const wildcard = accepts.find((a) => a.type === "*")?.q ?? 0;
  let best: { enc: Encoding; q: number } | undefined;
  for (const enc of offered) {
    const q = accepts.find((a) => a.type.toLowerCase() === enc)?.q ?? wildcard;
    if (q > 0 && (!best || q > best.q)) best = { enc, q };
  }
  return best?.enc;
}

/** Brotli at quality 4 for answers made per request: most of the gain of 11 at a fraction of the time. */
export function compressNow(body: Uint8Array, enc: Encoding): Uint8Array {
  if (enc === "gzip") return Bun.gzipSync(body as Uint8Array<ArrayBuffer>);
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
}

/** Statuses whose answers have no body (RFC 9110): nothing to compress, nothing to vary. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** An answer that compressJsonAnswer may compress: JSON, with a body, not yet encoded. */
const JSON_TYPE = /^application\/json\b/i;
const ATTACHMENT = /^attachment\b/i;

/**
 * Compresses a JSON answer above the threshold, Brotli or gzip as the client
 * accepts (called on every /api answer by the request pipeline,
 * request-pipeline.ts). JSON bodies are already whole strings (c.json), so
 * this buffers nothing that was not buffered; streams (text/event-stream)
 * pass untouched. JSON downloads (Content-Disposition: attachment, the
 * exports) are written as they are read: gzip on the fly
 * (CompressionStream), never buffered. The answer's body is touched only once
 * it is to be compressed: asking Bun for it turns a string answer into a
 * stream, which cost ~1-2 µs on every JSON answer (docs/BENCHMARKS.md,
 * "Per-request cost"). Synchronous, and undefined, when there is nothing to
 * compress: no promise on the common path. `varied`: the answer carries its
 * Vary already (answerJson, answer-headers.ts).
 */
export function compressJsonAnswer(c: Context, varied = false): Promise<void> | undefined {
  const res = c.res;
  if (c.req.method === "HEAD" || NO_BODY.has(res.status)) return;
  const headers = res.headers;
  if (!JSON_TYPE.test(headers.get("Content-Type") ?? "") || headers.has("Content-Encoding")) return;
  if (!varied) headers.append("Vary", "Accept-Encoding");
  const accept = c.req.raw.headers.get("Accept-Encoding") ?? undefined;
  if (!accept) return;
  if (ATTACHMENT.test(headers.get("Content-Disposition") ?? "")) {
    if (pickEncoding(accept, ["gzip"]) !== "gzip" || !res.body) return;
    const out = new Headers(headers);
    out.set("Content-Encoding", "gzip");
    out.delete("Content-Length");
    c.res = new Response(res.body.pipeThrough(new CompressionStream("gzip")), { status: res.status, headers: out });
    return;
  }
  const enc = pickEncoding(accept, ["br", "gzip"]);
  return enc && res.body ? compressWhole(c, res, enc) : undefined;
}

async function compressWhole(c: Context, res: Response, enc: Encoding): Promise<void> {
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  if (body.length < JSON_COMPRESS_THRESHOLD) {
    c.res = new Response(body, { status: res.status, headers });
    return;
  }
  headers.set("Content-Encoding", enc);
  headers.delete("Content-Length");
  c.res = new Response(compressNow(body, enc) as Uint8Array<ArrayBuffer>, { status: res.status, headers });
}
