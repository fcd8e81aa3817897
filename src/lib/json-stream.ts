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

/** Text pieces as a byte stream, one piece per pull. */
export function textStream(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}
