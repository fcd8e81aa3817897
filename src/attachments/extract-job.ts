import type { AttachmentKind } from "../db/schema/index.ts";

/** What the main thread asks the extraction worker. */
export type ExtractJob = { kind: AttachmentKind; bytes: Uint8Array; maxPages: number };

/** An image ready for the models and the page. */
export type PreparedImage = { mime: string; modelImage: Uint8Array; thumbnail: Uint8Array; width: number; height: number };

/** What the worker answers: the text by page (a PDF) or whole, the page count, and for an image (or a scanned PDF's first picture) the prepared image. */
export type ExtractResult =
  | { ok: true; pages: string[] | null; text: string | null; pageCount: number | null; image: PreparedImage | null }
  | { ok: false; reason: string /** What went wrong, for the operator's log (never shown to the user). */; detail?: string };

/** Long side of the picture the models get (Anthropic's advice; OpenAI and Gemini resize past it anyway). */
export const MODEL_IMAGE_SIDE = 1568;
export const THUMBNAIL_SIDE = 256;
