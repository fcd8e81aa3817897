import { randomBytes, randomInt } from "node:crypto";

/** 256-bit opaque token, URL-safe. Only its hash is ever stored. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * SHA-256 of the text, in hex. Bun's one-shot hash, not node:crypto's
 * createHash: every signed-in request hashes its bearer, and the Hash object
 * (a stream, made and thrown away each time) cost ~0.2-0.4 µs more in
 * isolation, more under load (docs/BENCHMARKS.md, "Fifth round").
 */
export function sha256(text: string): string {
  return Bun.SHA256.hash(text, "hex");
}

/** A uniformly random string of decimal digits (two-factor codes). */
export function randomDigits(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}
