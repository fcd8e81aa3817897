import { Jimp } from "jimp";
import type { AttachmentKind } from "../db/schema/index.ts";
import { MODEL_IMAGE_SIDE, type PreparedImage, THUMBNAIL_SIDE } from "./extract.types.ts";

type Picture = InstanceType<typeof Jimp>;

/** Resized in place to `side` on its long side, never enlarged (no copy of a large bitmap: memory is what limits a worker). */
function fitted(image: Picture, side: number): Picture {
  const long = Math.max(image.width, image.height);
  if (long <= side) return image;
  const scale = side / long;
  return image.resize({ w: Math.max(1, Math.round(image.width * scale)), h: Math.max(1, Math.round(image.height * scale)) }) as Picture;
}

async function encoded(image: Picture, png: boolean): Promise<Uint8Array> {
  return png ? await image.getBuffer("image/png") : await image.getBuffer("image/jpeg", { quality: 85 });
}

async function prepared(image: Picture, png: boolean): Promise<PreparedImage> {
  const { width, height } = image;
  const model = fitted(image, MODEL_IMAGE_SIDE);
  const modelImage = await encoded(model, png);
  // The thumbnail from the models' picture, already small.
  const thumbnail = await encoded(fitted(model.clone() as Picture, THUMBNAIL_SIDE), png);
  return { mime: png ? "image/png" : "image/jpeg", modelImage, thumbnail, width, height };
}

/**
 * A PNG, JPEG or GIF (its first frame) decoded by jimp (pure JavaScript, so
 * the compiled executable carries it), resized to a long side of 1568 px for
 * the models and 256 px for the thumbnail. PNG and GIF stay PNG (transparency,
 * drawings), a photo stays JPEG. WebP has no pure-JavaScript decoder in jimp:
 * it goes to the models as it came, its size read from its header.
 */
export async function prepareImage(kind: AttachmentKind, bytes: Uint8Array): Promise<PreparedImage> {
  if (kind === "webp") {
    const { width, height } = webpSize(bytes);
    return { mime: "image/webp", modelImage: bytes, thumbnail: bytes, width, height };
  }
  const image = (await Jimp.read(Buffer.from(bytes))) as Picture;
  return await prepared(image, kind !== "jpeg");
}

/** A picture pdf.js decoded out of a scanned PDF (1, 3 or 4 channels), as a JPEG. */
export async function prepareRawImage(data: Uint8ClampedArray, width: number, height: number, channels: number): Promise<PreparedImage> {
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = p * channels;
    rgba[p * 4] = data[s]!;
    rgba[p * 4 + 1] = data[channels >= 3 ? s + 1 : s]!;
    rgba[p * 4 + 2] = data[channels >= 3 ? s + 2 : s]!;
    rgba[p * 4 + 3] = channels === 4 ? data[s + 3]! : 255;
  }
  const image = new Jimp({ width, height, data: Buffer.from(rgba) });
  return await prepared(image, false);
}

/** Width and height from a WebP header (VP8, VP8L or VP8X chunk); 0 when unreadable. */
function webpSize(b: Uint8Array): { width: number; height: number } {
  const chunk = String.fromCharCode(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0);
  const u16 = (i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
  const u24 = (i: number) => u16(i) | ((b[i + 2] ?? 0) << 16);
  if (chunk === "VP8X") return { width: u24(24) + 1, height: u24(27) + 1 };
  if (chunk === "VP8L") {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") return { width: u16(26) & 0x3fff, height: u16(28) & 0x3fff };
  return { width: 0, height: 0 };
}
