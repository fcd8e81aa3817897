import type { Command } from "commander";
import type { Config } from "../../src/config.ts";
import { configFor, type GlobalOptions } from "../options.ts";

/** Starts the server; given by src/main.ts, so the CLI does not import the server. */
export type StartServer = (config: Config) => Promise<unknown>;

export function registerServe(program: Command, startServer: StartServer) {
  program
    .command("serve", { isDefault: true })
    .description("démarre le serveur web (API + application)")
    .action(async () => {
      await startServer(configFor(program.opts<GlobalOptions>()));
      // Keep running: Bun.serve holds the process open until a signal stops it.
      await new Promise(() => {});
    });
}
