import { constants, createGzip } from "node:zlib";
import { pickEncoding } from "./compress.ts";

/**
 * The deflate window and memory level of a live stream: 4 KB of history
 * holds the repeated framing of the events (`event: model_delta`, the model
 * names, the JSON keys) and most repeated words; measured on a real-length
 * answer, 8.7 KB on the wire against 8.1 KB with zlib's defaults (32 KB),
 * for half the CPU (docs/BENCHMARKS.md, "Live streams on the wire").
 */
const WINDOW_BITS = 12;
const MEM_LEVEL = 5;

/**
 * A live event stream, gzip-compressed for a client that accepts it, and the
 * headers that say so; the stream as it is for the others. Every chunk the
 * run writes (one event, a heartbeat) is compressed with Z_SYNC_FLUSH: it
 * leaves at once, whole, decodable by the client without waiting for the
 * next one, and the window carries over from event to event (a full flush
 * would reset it: 29 KB instead of 8.7). gzip rather than Brotli: Brotli
 * gained less here with its flushes (12 KB at quality 4) and held three
 * times the memory per open stream.
 */
export function compressedEvents(
  acceptEncoding: string | undefined,
  stream: ReadableStream<Uint8Array>,
): { body: ReadableStream<Uint8Array>; headers: Record<string, string> } {
  const vary = { vary: "Accept-Encoding" };
  if (pickEncoding(acceptEncoding, ["gzip"]) !== "gzip") return { body: stream, headers: vary };
  return { body: gzipEvents(stream), headers: { ...vary, "content-encoding": "gzip" } };
}

function gzipEvents(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const zip = createGzip({ flush: constants.Z_SYNC_FLUSH, windowBits: WINDOW_BITS, memLevel: MEM_LEVEL });
  const reader = stream.getReader();
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip.on("data", (chunk: Buffer) => {
        if (!done) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      zip.on("end", () => {
        if (done) return;
        done = true;
        controller.close();
      });
      zip.on("error", (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
      // The events written in one turn of the event loop (each model's piece of a 100 ms flush, an answer and the
      // next model's piece) go to zlib as one write, one flush: a zlib write costs far more than its bytes.
      // Small and few a second: no backpressure to honour.
      let batch: Uint8Array[] = [];
      const write = () => {
        const chunks = batch;
        batch = [];
        if (!done && chunks.length > 0) zip.write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      };
      void (async () => {
        for (;;) {
          const next = await reader.read();
          if (next.done) {
            write();
            return zip.end();
          }
          if (batch.push(next.value) === 1) setImmediate(write);
        }
      })().catch((error) => zip.destroy(error as Error));
    },
    // A client that went away (a closed tab): the run's stream is cancelled too, which gives its slot back.
    async cancel(reason) {
      done = true;
      zip.destroy();
      await reader.cancel(reason);
    },
  });
}
