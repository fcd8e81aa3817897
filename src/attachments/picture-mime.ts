/**
 * The type of a prepared picture (the models' picture or a thumbnail), read
 * from its first bytes: PNG or JPEG; a WebP stored before WebP was decoded
 * (kept as it came).
 */
export function pictureMime(bytes: Uint8Array): "image/png" | "image/jpeg" | "image/webp" {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return "image/png";
  if (bytes[0] === 0x52 && bytes[1] === 0x49) return "image/webp";
  return "image/jpeg";
}
