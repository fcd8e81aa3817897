import { inflateSync } from "node:zlib";
import { imageSize } from "image-size";
import type { AttachmentKind } from "../db/schema/index.ts";

/** What the user is told when a file's reading would need more memory than a reader may use. */
export const MEMORY_REFUSAL = "sa lecture demande trop de mémoire";

/**
 * Memory a decoded pixel costs while a picture is prepared: 4 bytes of RGBA,
 * then the resize's copy and the encoder's buffers (a 12-megapixel photo
 * grows jimp by about 200 MB: docs/BENCHMARKS.md, "Attachments").
 */
const BYTES_PER_PIXEL = 16;
/**
 * Memory a byte of a DOCX's XML costs once mammoth has parsed it into nodes:
 * 40 MB of one-letter paragraphs took a reader past 1.4 GB before its limit
 * stopped it (tiny paragraphs cost the most; about 21 MB of XML fit the
 * default budget, a 500-page report has 5 to 15).
 */
const BYTES_PER_XML_BYTE = 48;

/** Memory a byte of a PDF stream costs once inflated: pdf.js keeps the decoded stream and the objects it parses from it. */
const BYTES_PER_INFLATED_BYTE = 4;

/**
 * Whether a file would need more than `budgetBytes` to read, from what it
 * declares before anything is decoded: a picture's width and height in its
 * header (image-size: PNG, JPEG, WebP, GIF), a DOCX's XML sizes in its zip
 * directory, a PDF's largest Flate stream once inflated (counted by zlib
 * with a ceiling, the output never kept past it). The same file gets the same answer whatever ran before; a file
 * that lies about its sizes meets the reader process's own memory limit
 * (reader-pool.ts). The reason for the user, or null when it fits.
 */
export async function overBudget(kind: AttachmentKind, bytes: Uint8Array, budgetBytes: number): Promise<string | null> {
  if (kind === "png" || kind === "jpeg" || kind === "webp" || kind === "gif") {
    const { width, height } = imageSize(bytes);
    if (!width || !height) return "cette image ne dit pas sa taille";
    return width * height * BYTES_PER_PIXEL > budgetBytes ? MEMORY_REFUSAL : null;
  }
  if (kind === "pdf")
    return largestInflatedStream(bytes, budgetBytes / BYTES_PER_INFLATED_BYTE) > budgetBytes / BYTES_PER_INFLATED_BYTE ? MEMORY_REFUSAL : null;
  if (kind === "docx") {
    const xml = zipEntries(bytes)
      .filter((e) => /\.(xml|rels)$/i.test(e.name))
      .reduce((total, e) => total + e.size, 0);
    return xml * BYTES_PER_XML_BYTE > budgetBytes ? MEMORY_REFUSAL : null;
  }
  return null;
}

/**
 * The entries of a zip's central directory with their declared uncompressed
 * size. Read by hand (30 lines of a fixed format) because the zip libraries
 * at hand either inflate the entries or keep these sizes private (jszip,
 * what mammoth uses). A Zip64 size (0xFFFFFFFF) counts as infinite: no DOCX
 * a person writes needs 4 GB of XML.
 */
export function zipEntries(bytes: Uint8Array): Array<{ name: string; size: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: its signature, searched back from the end past a comment of up to 64 KB.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return [];
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const entries: Array<{ name: string; size: number }> = [];
  for (let n = 0; n < count && at + 46 <= bytes.length; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) break;
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.push({ name, size: size === 0xffffffff ? Number.POSITIVE_INFINITY : size });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/**
 * The largest inflated size of a PDF's Flate streams, up to `ceiling` + 1
 * (a stream past it is not inflated further: zlib stops at maxOutputLength).
 * A stream is found by its `stream` keyword after a dictionary naming
 * /FlateDecode, and ends at the next `endstream`; a stream that does not
 * inflate (damaged, or another filter) counts nothing here and is pdf.js's
 * to refuse.
 */
export function largestInflatedStream(bytes: Uint8Array, ceiling: number): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const start = /stream\r?\n/g;
  let largest = 0;
  for (let found = start.exec(text); found; found = start.exec(text)) {
    const at = found.index;
    if (text.slice(at - 3, at) === "end") continue;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf("obj", at)), at);
    if (!dictionary.includes("/FlateDecode")) continue;
    const end = text.indexOf("endstream", at);
    if (end < 0) break;
    const data = bytes.subarray(at + found[0].length, end);
    try {
      largest = Math.max(largest, inflateSync(data, { maxOutputLength: ceiling + 1, finishFlush: 2 }).length);
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return ceiling + 1;
    }
    start.lastIndex = end;
  }
  return largest;
}
