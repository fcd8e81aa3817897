#!/usr/bin/env bun
import { runCli } from "../cli/index.ts";
import { startServer } from "./server.ts";
import { ensureHttpClientCap } from "./system/http-client-cap.ts";

// One executable: `unisson` or `unisson serve` runs the server, `unisson <command>` the admin CLI.
// This entry is the only module that knows both: the CLI gets the server's start as an argument.
// Before anything starts: the server may replace its process with one whose HTTP client holds every live answer.
ensureHttpClientCap(process.argv);
process.exitCode = await runCli(process.argv, { startServer });
