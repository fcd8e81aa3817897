import type { Deps } from "../deps.ts";
import type { UserRow } from "../db/schema/index.ts";
import { AppError } from "../lib/errors.ts";
import { storeFile } from "../attachments/attachments.service.ts";
import { countUploads } from "../attachments/upload-limit.ts";
import { createRateLimitStore } from "../lib/rate-limit.ts";

/** A file a /v1 request carried in its last user message, decoded. */
export type ApiFile = { name: string; bytes: Uint8Array };

type Part = Record<string, unknown> & { type: string };

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(;[\w-]+=[^;,]*)*;base64,/i;

function refuse(detail: string, param: string): AppError {
  return new AppError("VALIDATION", detail, {}, { param });
}

/** The bytes of a data URL or of bare base64; an http(s) address is refused, never fetched (docs/SECURITY.md, "Attachments"). */
function decoded(value: unknown, param: string): Uint8Array {
  if (typeof value !== "string" || value.length === 0) throw refuse("Le fichier joint est vide ou n'est pas une chaîne base64.", param);
  if (/^https?:/i.test(value))
    throw refuse("Unisson ne télécharge pas de fichier ni d'image depuis une adresse : joignez-le en base64 (data:image/png;base64,… ou file_data).", param);
  const base64 = value.replace(DATA_URL, "");
  if (/^data:/i.test(base64) || !/^[A-Za-z0-9+/=\s_-]*$/.test(base64)) throw refuse("Le fichier joint doit être une data URL en base64.", param);
  return new Uint8Array(Buffer.from(base64, "base64"));
}

/**
 * The pictures and files of a /v1 message, in both protocols: chat
 * completions' `image_url` ({ url } or a string) and `file` ({ file_data,
 * filename }), the Responses API's `input_image` (image_url) and `input_file`
 * (file_data, filename). A file id (an upload kept at OpenAI) is refused:
 * Unisson keeps none apart from a question.
 */
export function filesOf(parts: readonly Part[]): ApiFile[] {
  const files: ApiFile[] = [];
  parts.forEach((p, i) => {
    const param = `content[${i}]`;
    if (p.type === "image_url" || p.type === "input_image") {
      const url = typeof p.image_url === "object" && p.image_url !== null ? (p.image_url as { url?: unknown }).url : p.image_url;
      if (url === undefined && p.file_id !== undefined)
        throw refuse("Les images par identifiant (file_id) ne sont pas prises en charge : joignez-les en base64.", param);
      files.push({ name: `image-${files.length + 1}`, bytes: decoded(url, param) });
    } else if (p.type === "file" || p.type === "input_file") {
      const f = (p.type === "file" ? (p.file ?? {}) : p) as { file_data?: unknown; filename?: unknown; file_id?: unknown; file_url?: unknown };
      if (f.file_data === undefined && (f.file_id !== undefined || f.file_url !== undefined))
        throw refuse("Les fichiers par identifiant ou par adresse ne sont pas pris en charge : joignez-les en base64 (file_data).", param);
      files.push({ name: typeof f.filename === "string" ? f.filename : `fichier-${files.length + 1}`, bytes: decoded(f.file_data, param) });
    }
  });
  return files;
}

/** The request's files, each checked and read as an upload of the page would be (same limits, same refusals); their ids, to send with the question. */
export async function storeApiFiles(deps: Deps, user: Pick<UserRow, "id" | "subscriptionType">, files: readonly ApiFile[]): Promise<number[]> {
  const max = deps.config.attachments.perMessage;
  if (files.length > max) throw new AppError("ATTACHMENTS_TOO_MANY", `Trop de pièces jointes : ${max} au plus par message.`);
  // The page's upload counter (a store on the same table: counters live in the database, not in the store).
  await countUploads(createRateLimitStore(deps.db, deps.clock), user.id, files.length);
  const ids: number[] = [];
  for (const f of files) ids.push((await storeFile(deps, user, f.name, f.bytes)).id);
  return ids;
}

/** The largest /v1 body: a question with ATTACHMENTS_PER_MESSAGE files of ATTACHMENT_MAX_MB, in base64 (4 characters for 3 bytes). */
export function v1BodyLimit(base: number, attachments: { perMessage: number; maxBytes: number }): number {
  return base + attachments.perMessage * Math.ceil((attachments.maxBytes * 4) / 3);
}
