import type { AttachmentKind } from "../db/schema/index.ts";
import type { ExtractResult } from "./extract-job.ts";
import { readFile } from "./read-file.ts";

/** The result as one JSON document on stdout: the prepared pictures in base64 (a few hundred KB at most). */
export type WireResult =
  | (Extract<ExtractResult, { ok: true }> & { image: null })
  | (Omit<Extract<ExtractResult, { ok: true }>, "image"> & { image: { mime: string; modelImage: string; thumbnail: string; width: number; height: number } })
  | Extract<ExtractResult, { ok: false }>;

/**
 * A reader process (started by reader-pool.ts under an operating-system
 * memory limit, one per file): the file's bytes on stdin, its kind, the pages
 * to read and the memory budget as arguments, the result as JSON on stdout.
 * It holds no secret and opens neither the database nor the network: its
 * environment is empty but for PATH.
 */
export async function runReader(args: readonly string[]): Promise<number> {
  const [kind, maxPages, budget] = args;
  const bytes = new Uint8Array(await Bun.stdin.arrayBuffer());
  const result = await readFile({ kind: kind as AttachmentKind, bytes, maxPages: Number(maxPages) }, Number(budget));
  const wire: WireResult =
    result.ok && result.image
      ? {
          ...result,
          image: {
            ...result.image,
            modelImage: Buffer.from(result.image.modelImage).toString("base64"),
            thumbnail: Buffer.from(result.image.thumbnail).toString("base64"),
          },
        }
      : (result as WireResult);
  await Bun.write(Bun.stdout, JSON.stringify(wire));
  return 0;
}
