#!/usr/bin/env bun
import { runCli } from "../cli/index.ts";
import { startServer } from "./server.ts";

// One executable: `unisson` or `unisson serve` runs the server, `unisson <command>` the admin CLI.
// This entry is the only module that knows both: the CLI gets the server's start as an argument.
process.exitCode = await runCli(process.argv, { startServer });
