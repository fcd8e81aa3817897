/**
 * JSON written as it is read, for downloads of any size: a document whose
 * big arrays come page by page, turned into a byte stream that asks for the
 * next piece only when the client has taken the last one (pull), so memory
 * holds one page whatever the size. A client that goes away stops the reads.
 */
const encoder = new TextEncoder();

/** One field of a streamed object: a value known at once, or an array read in pages (an empty page ends it). */
export type StreamedField = { key: string; value: unknown } | { key: string; pages: AsyncIterable<unknown[]> };

/**
 * An item written as several pieces of JSON text, made one at a time as the
 * stream is read: an object whose large fields (a file's base64, its text)
 * come in slices (slicedObject). Any other item is written whole.
 */
export class JsonPieces {
  constructor(readonly pieces: Iterable<string>) {}
}

/** Bytes per base64 slice: a multiple of 3, so the slices' base64 joined is the whole's; 1 MiB of text each. */
const BASE64_SLICE = 3 * 256 * 1024;
/** Characters per slice of a long string field. */
const TEXT_SLICE = 256 * 1024;

/**
 * `{...head, key: value, ...}` as JsonPieces: `head` written whole, then each
 * large field in slices, so that no step of the export encodes a 10 MB file
 * at once (its base64 and its JSON were 0.1-0.4 s of the server's thread,
 * docs/BENCHMARKS.md, "Hostile files"). The text is the same as
 * JSON.stringify of the whole object: a byte field is its base64 string, a
 * string is cut between whole characters (never inside a surrogate pair, which
 * JSON.stringify would write as an escape), null stays null.
 */
export function slicedObject(head: Record<string, unknown>, large: Array<[string, Uint8Array | string | null]>): JsonPieces {
  function* pieces(): Generator<string> {
    const start = JSON.stringify(head);
    let open = start === "{}" ? "{" : `${start.slice(0, -1)},`;
    for (const [key, value] of large) {
      if (value === null) {
        yield `${open}${JSON.stringify(key)}:null`;
      } else if (typeof value === "string") {
        yield `${open}${JSON.stringify(key)}:"`;
        for (let i = 0; i < value.length; ) {
          let end = Math.min(i + TEXT_SLICE, value.length);
          const last = value.charCodeAt(end - 1);
          if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--;
          yield JSON.stringify(value.slice(i, end)).slice(1, -1);
          i = end;
        }
        yield '"';
      } else {
        yield `${open}${JSON.stringify(key)}:"`;
        const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        for (let i = 0; i < bytes.length; i += BASE64_SLICE) yield bytes.subarray(i, i + BASE64_SLICE).toString("base64");
        yield '"';
      }
      open = ",";
    }
    yield open === "{" ? "{}" : "}";
  }
  return new JsonPieces({ [Symbol.iterator]: pieces });
}

/** `{"key": value, "key": [page items...], ...}` as text pieces, each item whole, or in slices when it is JsonPieces. */
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
    let text = "";
    let first = true;
    for await (const page of field.pages) {
      for (const item of page) {
        if (!first) text += ",";
        first = false;
        if (!(item instanceof JsonPieces)) {
          text += JSON.stringify(item);
          continue;
        }
        if (text) yield text;
        text = "";
        yield* item.pieces;
      }
      if (text) yield text;
      text = "";
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
