import type { Deps } from "../deps.ts";
import type { UserRow } from "../db/schema/index.ts";
import { AppError } from "../lib/errors.ts";
import { detectType, readText } from "./detect.ts";
import type { AttachmentKind } from "../db/schema/index.ts";
import { extractFile } from "./extract.ts";
import { type AttachmentInfo, insertAttachment, unsentOwned } from "./attachments.queries.ts";
import { PAGE_BREAK } from "./document-text.ts";
import { withinQuota } from "./storage-quota.ts";
import { nextTurnOfTheLoop } from "./upload-gate.ts";

/** What POST /api/attachments answers and a message lists (docs/API.md, "Attachments"). */
export type PublicAttachment = { id: number; name: string; kind: string; mime: string; size: number; pages?: number; width?: number; height?: number };

export function toPublicAttachment(a: AttachmentInfo): PublicAttachment {
  return {
    id: a.id,
    name: a.name,
    kind: a.kind,
    mime: a.mime,
    size: a.size,
    ...(a.pages !== null ? { pages: a.pages } : {}),
    ...(a.width !== null ? { width: a.width } : {}),
    ...(a.height !== null ? { height: a.height } : {}),
  };
}

/** A file name as shown: no path, no control characters, 200 characters at most. */
export function cleanName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean || "fichier").slice(0, 200);
}

export function refused(name: string, reason: string): AppError {
  const message = `« ${name} » n'est pas accepté : ${reason}.`;
  return new AppError("ATTACHMENT_REFUSED", message, {}, { error: message });
}

export function tooLarge(deps: Deps, name?: string): AppError {
  const limit = `${deps.config.attachments.maxMb} Mo au plus par fichier`;
  const message = name ? `« ${name} » est trop volumineux : ${limit}.` : `Ce fichier est trop volumineux : ${limit}.`;
  return new AppError("ATTACHMENT_TOO_LARGE", message, {}, { error: message });
}

/**
 * POST /api/attachments: the type read from the bytes (detect.ts), the text
 * and pictures read in a reader process with time and memory limits (extract.ts),
 * then one row. Pages are read up to the largest plan's cap (what a request
 * may ever use); which of them a request gives the models is decided when it is asked.
 */
export async function uploadAttachment(deps: Deps, user: Pick<UserRow, "id" | "subscriptionType">, file: File): Promise<PublicAttachment> {
  const name = cleanName(file.name);
  if (file.size > deps.config.attachments.maxBytes) throw tooLarge(deps, name);
  return await storeFile(deps, user, name, new Uint8Array(await file.arrayBuffer()));
}

/** One file, checked, read and stored, not yet sent with a message: the page's upload and a /v1 request's parts (src/openai/api-files.ts). */
export async function storeFile(deps: Deps, user: Pick<UserRow, "id" | "subscriptionType">, rawName: string, bytes: Uint8Array): Promise<PublicAttachment> {
  const name = cleanName(rawName);
  if (bytes.length > deps.config.attachments.maxBytes) throw tooLarge(deps, name);
  if (bytes.length === 0) throw refused(name, "le fichier est vide");
  return await withinQuota(deps, user, bytes.length, () => readAndStore(deps, user, name, bytes));
}

async function readAndStore(deps: Deps, user: Pick<UserRow, "id">, name: string, bytes: Uint8Array): Promise<PublicAttachment> {
  const limits = deps.config.attachments;
  const type = await detectType(bytes, name);
  if (!type.ok) throw refused(name, type.reason);

  let text: string | null = null;
  let pages: number | null = null;
  let image = null;
  // A text file is stored once, as its bytes: its text is read from them when a run needs it (textOf).
  if (!isTextKind(type.kind)) {
    const maxPages = Math.max(...Object.values(limits.pagesByPlan));
    const read = await extractFile(deps, user.id, { kind: type.kind, bytes, maxPages });
    if (!read.ok) {
      deps.log.warn("attachment not read", { kind: type.kind, size: bytes.length, reason: read.reason, detail: read.detail });
      throw refused(name, read.reason);
    }
    text = read.pages ? read.pages.join(PAGE_BREAK) : read.text;
    pages = read.pageCount;
    image = read.image;
  }
  // The row's commit (1 MB and its fsync: 5-8 ms) on a turn of its own, not after the reading in the same one.
  await nextTurnOfTheLoop();
  const row = await insertAttachment(deps.db, {
    userId: user.id,
    name,
    kind: type.kind,
    mime: type.mime,
    size: bytes.length,
    data: Buffer.from(bytes),
    modelImage: image ? Buffer.from(image.modelImage) : null,
    thumbnail: image ? Buffer.from(image.thumbnail) : null,
    text,
    pages,
    width: image?.width ?? null,
    height: image?.height ?? null,
    createdAt: deps.clock.now(),
  });
  deps.log.info("attachment stored", { id: row.id, kind: row.kind, size: row.size, pages: row.pages });
  return toPublicAttachment(row);
}

/** The uploads a message names: the sender's, not yet sent, at most ATTACHMENTS_PER_MESSAGE; else 400/404. */
export async function attachmentsToSend(deps: Deps, userId: number, ids: readonly number[] | undefined): Promise<AttachmentInfo[]> {
  const wanted = [...new Set(ids ?? [])];
  if (wanted.length === 0) return [];
  const max = deps.config.attachments.perMessage;
  if (wanted.length > max) throw new AppError("ATTACHMENTS_TOO_MANY", `Trop de pièces jointes : ${max} au plus par message.`);
  const found = await unsentOwned(deps.db, wanted, userId);
  if (found.length !== wanted.length) throw new AppError("ATTACHMENT_NOT_FOUND", "Pièce jointe introuvable : envoyez le fichier à nouveau.");
  return found;
}

export function isTextKind(kind: AttachmentKind): boolean {
  return kind === "text" || kind === "markdown" || kind === "csv";
}

/** An attachment's text: the one extracted at upload, or for a text file its bytes decoded (stored once). */
export function textOf(row: { kind: AttachmentKind; text: string | null }, data: Uint8Array | null | undefined): string | null {
  return row.text ?? (isTextKind(row.kind) && data ? readText(data) : null);
}
