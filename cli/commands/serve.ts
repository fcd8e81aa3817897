import type { Command } from "commander";
import { startServer } from "../../src/server.ts";
import { configFor, type GlobalOptions } from "../index.ts";

export function registerServe(program: Command) {
  program
    .command("serve", { isDefault: true })
    .description("démarre le serveur web (API + application)")
    .action(async () => {
      await startServer(configFor(program.opts<GlobalOptions>()));
      // Keep running: Bun.serve holds the process open until a signal stops it.
      await new Promise(() => {});
    });
}
