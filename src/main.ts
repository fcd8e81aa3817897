#!/usr/bin/env bun
import { runCli } from "../cli/index.ts";

// One executable: `unisson` or `unisson serve` runs the server, `unisson <command>` the admin CLI.
process.exitCode = await runCli(process.argv);
