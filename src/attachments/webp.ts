import decode, { init } from "@jsquash/webp/decode";
// The decoder's WebAssembly, embedded in the compiled executable as a file (a path in its embedded files).
import decoderWasm from "@jsquash/webp/codec/dec/webp_dec.wasm" with { type: "file" };

// Module state: the decoder, compiled once per reader process (it lives only there, which has no Deps).
let ready: Promise<void> | undefined;

/**
 * A WebP decoded to RGBA pixels by libwebp compiled to WebAssembly
 * (@jsquash/webp, docs/LIBRARIES.md). Its wasm is read from the embedded file
 * and handed over compiled: the package would otherwise fetch it from beside
 * its script, which the executable does not have. Runs in the extraction
 * reader process only (read-file.ts), under its time and memory limits.
 */
export async function decodeWebp(bytes: Uint8Array): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  ready ??= Bun.file(decoderWasm)
    .arrayBuffer()
    .then((wasm) => (init as (module: WebAssembly.Module) => Promise<void>)(new WebAssembly.Module(wasm)));
  await ready;
  const copy = bytes.slice();
  return await decode(copy.buffer);
}
