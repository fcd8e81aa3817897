import { fileURLToPath } from "node:url";

/** The argument that makes the executable (or src/main.ts) a reader process instead of the server or the CLI. */
export const READER_COMMAND = "attachment-reader";

/**
 * How to start a reader process: the compiled executable runs itself
 * (main.ts dispatches on READER_COMMAND); from the sources, Bun runs
 * src/main.ts the same way. Kept apart from reader-main.ts so that the server
 * never loads the readers' libraries (pdf.js, jimp, mammoth).
 */
export function readerCommand(): string[] {
  const compiled = import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
  return compiled ? [process.execPath, READER_COMMAND] : [process.execPath, fileURLToPath(new URL("../main.ts", import.meta.url)), READER_COMMAND];
}
