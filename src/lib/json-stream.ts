/**
 * JSON written as it is read, for downloads of any size: a document whose
 * big arrays come page by page, turned into a byte stream that asks for the
 * next piece only when the client has taken the last one (pull), so memory
 * holds one page whatever the size. A client that goes away stops the reads.
 */
const encoder = new TextEncoder();

/** One field of a streamed object: a value known at once, or an array read in pages (an empty page ends it). */
export type StreamedField = { key: string; value: unknown } | { key: string; pages: AsyncIterable<unknown[]> };

/** `{"key": value, "key": [page items...], ...}` as text pieces, each item whole. */
export async function* jsonObject(fields: StreamedField[]): AsyncGenerator<string> {
  let open = "{";
  for (const field of fields) {
    const key = `${open}${JSON.stringify(field.key)}:`;
    open = ",";
    if ("value" in field) {
      yield `${key}${JSON.stringify(field.value)}`;
      continue;
    }
    yield `${key}[`;
    let before = "";
    for await (const page of field.pages) {
      if (page.length === 0) continue;
      yield `${before}${page.map((item) => JSON.stringify(item)).join(",")}`;
      before = ",";
    }
    yield "]";
  }
  yield open === "{" ? "{}" : "}";
}

/** Keyset pages, mapped: `read(after)` until an empty page; `idOf` gives the key of a row, `map` what is written of it. */
export async function* keysetPages<T, U>(read: (afterId: number) => Promise<T[]>, idOf: (row: T) => number, map: (row: T) => U): AsyncGenerator<U[]> {
  let after = 0;
  for (;;) {
    const page = await read(after);
    if (page.length === 0) return;
    after = idOf(page[page.length - 1]!);
    yield page.map(map);
  }
}

/** Characters handed over per pull: a piece of a data export can be a 13 MB base64 file (issue 44). */
const SLICE = 1024 * 1024;

/**
 * Text pieces as a byte stream, at most SLICE characters per pull, with a
 * turn of the event loop between slices: a fast reader of a large export
 * otherwise had its 27 MB pieces encoded and compressed in one go, holding
 * /api/health for up to 2 s (docs/BENCHMARKS.md, "Hostile files").
 */
export function textStream(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  let rest = "";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (rest === "") {
        const next = await pieces.next();
        if (next.done) {
          controller.close();
          return;
        }
        rest = next.value;
      }
      // Never between the two halves of a surrogate pair (an emoji): each slice is encoded on its own.
      const high = rest.charCodeAt(SLICE - 1);
      const cut = high >= 0xd800 && high <= 0xdbff ? SLICE - 1 : SLICE;
      const slice = rest.slice(0, cut);
      rest = rest.slice(cut);
      controller.enqueue(encoder.encode(slice));
      await new Promise((resolve) => setImmediate(resolve));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}
