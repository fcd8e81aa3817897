import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed, JSONValue } from "hono/utils/types";
import { JSON_COMPRESS_THRESHOLD } from "./compress.ts";
import { securityHeaderList } from "./http-middleware.ts";

/**
 * The security headers every answer carries (Hono's secureHeaders, computed
 * once: http-middleware.ts), as [name, value] pairs; the request pipeline
 * sets them on each answer after its route.
 */
export const securityHeaders: Promise<ReadonlyArray<readonly [string, string]>> = securityHeaderList();

/**
 * Setting eleven headers one by one costs ~1-1.5 µs a request (each
 * `Headers.set` ~0.1 µs), copying a prebuilt `Headers` ~0.1 µs
 * (docs/BENCHMARKS.md, "Fourth round"). The hottest JSON answers are
 * therefore made from a prebuilt list: the security headers, the JSON type,
 * and the `Vary: Accept-Encoding` of compress.ts (no Vary on a HEAD, as
 * compress.ts leaves it). The pipeline knows them (answerMade) and leaves
 * them as they are; it still adds X-Request-Id, and compresses them as any
 * JSON answer unless they are too small for it: a JSON text of n characters
 * is at most 3n bytes, so under a third of the threshold it never is, and the
 * pipeline skips the compression's checks (~0.2 µs).
 */
// Module state: the security headers are the same for every app of the process, hence these lists.
let prebuilt: { get: Headers; head: Headers } | undefined;
// Module state: the answers made by answerJson (true: too small to compress), forgotten with them.
const made = new WeakMap<Response, boolean>();

void securityHeaders.then((list) => {
  const json: Array<readonly [string, string]> = [...list, ["Content-Type", "application/json"]];
  prebuilt = { get: new Headers([...json, ["Vary", "Accept-Encoding"]] as Array<[string, string]>), head: new Headers(json as Array<[string, string]>) };
});

/**
 * c.json(object, status) for the hottest routes (/api/health, /api/auth/me):
 * the same answer, made with the pipeline's headers already in place. Before
 * the list is ready (the first microtasks of the process), c.json itself.
 */
export function answerJson<T extends JSONValue | object, U extends ContentfulStatusCode = 200>(
  c: Context,
  object: T,
  status?: U,
): Response & TypedResponse<JSONParsed<T>, U, "json"> {
  if (!prebuilt) return c.json(object as never, status) as never;
  const text = JSON.stringify(object);
  const res = new Response(text, { status: status ?? 200, headers: c.req.method === "HEAD" ? prebuilt.head : prebuilt.get });
  made.set(res, text.length * 3 < JSON_COMPRESS_THRESHOLD);
  return res as never;
}

/**
 * Whether answerJson made this answer: undefined when it did not (the
 * pipeline sets its headers), "small" when it is too small to compress.
 */
export function answerMade(res: Response): "small" | "compressible" | undefined {
  const small = made.get(res);
  return small === undefined ? undefined : small ? "small" : "compressible";
}
