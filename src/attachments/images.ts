import { Jimp } from "jimp";
import type { AttachmentKind } from "../db/schema/index.ts";
import { MODEL_IMAGE_SIDE, type PreparedImage, THUMBNAIL_SIDE } from "./extract-job.ts";
import { decodeWebp } from "./webp.ts";

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
 * the compiled executable carries it), a WebP by libwebp in WebAssembly
 * (webp.ts: jimp has no WebP decoder), resized to a long side of 1568 px for
 * the models and 256 px for the thumbnail. PNG and GIF stay PNG
 * (transparency, drawings), a photo stays JPEG; a WebP becomes PNG when it
 * has transparent pixels, JPEG otherwise (what the models get is told by
 * its bytes: picture-mime.ts).
 */
export async function prepareImage(kind: AttachmentKind, bytes: Uint8Array): Promise<PreparedImage> {
  if (kind === "webp") {
    const { data, width, height } = await decodeWebp(bytes);
    return await prepared(new Jimp({ width, height, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) }), hasTransparency(data));
  }
  const image = (await Jimp.read(Buffer.from(bytes))) as Picture;
  return await prepared(image, kind !== "jpeg");
}

function hasTransparency(rgba: Uint8ClampedArray): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! < 255) return true;
  return false;
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
