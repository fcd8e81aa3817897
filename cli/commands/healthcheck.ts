import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { RefusedError } from "../../src/lib/errors.ts";
import { configFor, type GlobalOptions } from "../options.ts";

/** For Docker's HEALTHCHECK: the slim image has no curl, the executable asks itself. */
export function registerHealthcheck(program: Command) {
  program
    .command("healthcheck")
    .description("vérifie que le serveur local répond sur /api/health (code 0 si oui)")
    .action(async () => {
      const config = configFor(program.opts<GlobalOptions>());
      const url = `http://127.0.0.1:${config.port}/api/health`;
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
      if (!res?.ok) throw new RefusedError(frCli.serverDown(url));
      console.log("ok");
    });
}
