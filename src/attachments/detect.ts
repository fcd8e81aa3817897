import { fileTypeFromBuffer } from "file-type";
import type { AttachmentKind } from "../db/schema/index.ts";

export type Detected = { ok: true; kind: AttachmentKind; mime: string } | { ok: false; reason: string };

/** The formats accepted, by the MIME type file-type reads from the bytes. */
const BY_MIME: Record<string, AttachmentKind> = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
  "image/gif": "gif",
};

/** Refused with a reason the user understands (what the bytes are), checked before the catch-all. */
const EXECUTABLES = new Set(["exe", "elf", "mach", "dmg", "msi", "deb", "rpm", "apk", "wasm", "class", "dex", "swf", "lnk", "cab", "crx", "xpi"]);
const ARCHIVES = new Set([
  "zip",
  "rar",
  "7z",
  "gz",
  "bz2",
  "xz",
  "tar",
  "zst",
  "lz",
  "lzh",
  "arj",
  "cpio",
  "ar",
  "Z",
  "lz4",
  "jar",
  "epub",
  "xlsx",
  "pptx",
  "odt",
  "ods",
  "odp",
]);

/** An SVG document: optional XML declaration, comments and doctype, then the <svg> element. */
const SVG = /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i;

/** The MIME types the page's picker offers (the `accept` list of GET /api/attachment-limits). */
export const ACCEPTED_MIME = [...Object.keys(BY_MIME), "text/plain", "text/markdown", "text/csv"];

/**
 * What a file is, from its bytes only (file-type reads the magic numbers and,
 * for Office files, the zip's entries); its name only tells plain text from
 * Markdown or CSV, which have no signature. An executable, an archive, an SVG
 * or anything else is refused with the reason.
 */
export async function detectType(bytes: Uint8Array, name: string): Promise<Detected> {
  const found = await fileTypeFromBuffer(bytes);
  // file-type calls any XML "xml": an SVG is one, and is refused for what it is (it can carry scripts).
  if (found && (found.mime === "image/svg+xml" || (found.ext === "xml" && SVG.test(readText(bytes) ?? "")))) {
    return { ok: false, reason: "les images SVG ne sont pas acceptées" };
  }
  if (found) {
    const kind = BY_MIME[found.mime];
    if (kind) return { ok: true, kind, mime: found.mime };
    if (EXECUTABLES.has(found.ext) || found.mime.includes("executable")) return { ok: false, reason: "c'est un programme exécutable" };
    if (ARCHIVES.has(found.ext)) return { ok: false, reason: "c'est une archive compressée ou un format non pris en charge" };
    return { ok: false, reason: `ce format (${found.ext}) n'est pas pris en charge` };
  }
  const text = readText(bytes);
  if (text === null) return { ok: false, reason: "ce n'est ni un document, ni une image, ni un texte lisible" };
  if (SVG.test(text)) return { ok: false, reason: "les images SVG ne sont pas acceptées" };
  if (/^%PDF-/.test(text)) return { ok: false, reason: "ce PDF est endommagé" };
  if (/^#!/.test(text)) return { ok: false, reason: "c'est un programme exécutable (script)" };
  const ext = name.toLowerCase().split(".").pop();
  if (ext === "pdf" || ext === "docx") return { ok: false, reason: `ce n'est pas un fichier ${ext.toUpperCase()}, malgré son nom` };
  if (ext === "md" || ext === "markdown") return { ok: true, kind: "markdown", mime: "text/markdown" };
  if (ext === "csv") return { ok: true, kind: "csv", mime: "text/csv" };
  return { ok: true, kind: "text", mime: "text/plain" };
}

/**
 * The file as text: UTF-8, or else Windows-1252 (what Excel and older
 * Windows tools write a French CSV or text in); null when it holds control
 * characters other than tab, line breaks and form feed (a binary file).
 */
export function readText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1252").decode(bytes);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) return null;
  return text.replace(/^\uFEFF/, "");
}
