#!/usr/bin/env bun
// One executable: `unisson` or `unisson serve` runs the server, `unisson <command>` the admin CLI, and
// `unisson attachment-reader …` a reader process the server starts for each file (src/attachments/reader-pool.ts).
// This entry is the only module that knows all three: the CLI gets the server's start as an argument.
// The modules are imported on demand, so that a reader process loads neither the server nor the CLI.
import { READER_COMMAND } from "./attachments/reader-command.ts";
import { ensureHttpClientCap } from "./system/http-client-cap.ts";

if (process.argv[2] === READER_COMMAND) {
  const { runReader } = await import("./attachments/reader-main.ts");
  process.exitCode = await runReader(process.argv.slice(3));
} else {
  // Before anything starts: the server may replace its process with one whose HTTP client holds every live answer.
  ensureHttpClientCap(process.argv);
  const [{ runCli }, { startServer }] = await Promise.all([import("../cli/index.ts"), import("./server.ts")]);
  process.exitCode = await runCli(process.argv, { startServer });
}
