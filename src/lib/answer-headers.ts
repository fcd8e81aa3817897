import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed, JSONValue } from "hono/utils/types";
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
 * compress.ts leaves it). The pipeline knows them by this set and leaves
 * them as they are; it still adds X-Request-Id and compresses as it would.
 */
// Module state: the security headers are the same for every app of the process, hence these lists.
let prebuilt: { get: Headers; head: Headers } | undefined;
// Module state: the answers made by answerJson, forgotten with them.
const made = new WeakSet<Response>();

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
  const res = new Response(JSON.stringify(object), { status: status ?? 200, headers: c.req.method === "HEAD" ? prebuilt.head : prebuilt.get });
  made.add(res);
  return res as never;
}

/** Whether an answer already carries the pipeline's headers (made by answerJson). */
export function hasAnswerHeaders(res: Response): boolean {
  return made.has(res);
}
