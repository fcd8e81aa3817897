import { createMiddleware } from "hono/factory";
import { AppError } from "../lib/errors.ts";
import { jsonShape } from "../lib/json-shape.ts";
import type { V1Env } from "./ask.ts";

/**
 * The text of a request without files: chat apps resend the whole
 * conversation at every question, and the council reads only its tail
 * (messages.ts), so the head is accepted rather than refused. About 700
 * exchanges of 3,000 characters each way.
 */
export const HISTORY_BYTES = 4 * 1024 * 1024;
const HISTORY_MIB = HISTORY_BYTES / 1024 / 1024;

/** Objects and arrays in one body, and their nesting: every message is 1 to 4 of them; JSON.parse allocates each (json-shape.ts). */
const SHAPE = { containers: 20_000, depth: 64 };

/** A picture or file part (api-files.ts), found in the text without parsing it. */
const FILE_PART = /"type"\s*:\s*"(?:image_url|input_image|file|input_file)"/;

/**
 * After the key check and the byte limit: the body read once (Hono keeps
 * the text, which the validator then parses once), its objects and nesting
 * counted before any parse, and a body past HISTORY_BYTES refused unless it
 * carries files (whose allowance is the byte limit's, api-files.ts).
 */
export const v1Body = createMiddleware<V1Env>(async (c, next) => {
  if (c.req.method !== "POST") return await next();
  const text = await c.req.text();
  const shape = jsonShape(text, SHAPE);
  if (shape.containers > SHAPE.containers || shape.depth > SHAPE.depth)
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `Requête trop volumineuse : plus de ${SHAPE.containers.toLocaleString("fr-FR").replace(/\s/g, " ")} objets et listes, ou plus de ${SHAPE.depth} niveaux d'imbrication. Envoyez moins de messages ou de parties.`,
    );
  if (Buffer.byteLength(text) > HISTORY_BYTES && !FILE_PART.test(text))
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `Requête trop volumineuse : la conversation envoyée dépasse ${HISTORY_MIB} Mio. Seuls les derniers messages servent au conseil : envoyez moins d'historique.`,
    );
  await next();
});
