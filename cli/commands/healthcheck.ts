import { frCli } from "../../src/i18n/fr-cli.ts";
import { resolve } from "node:path";
import type { Command } from "commander";
import { RefusedError } from "../../src/lib/errors.ts";
import { readServerRecord, recordedDatabase, recordedProcessAlive } from "../../src/system/server-record.ts";
import { configFor, type GlobalOptions } from "../options.ts";
import { print } from "../output.ts";

/**
 * For Docker's HEALTHCHECK and supervisors: the slim image has no curl, the
 * executable asks itself. It asks the server of its own data folder and
 * database, at the address that server recorded when it started
 * (src/system/server-record.ts): never another server that happens to answer
 * on 127.0.0.1:$PORT.
 */
export function registerHealthcheck(program: Command) {
  program
    .command("healthcheck")
    .description("vérifie que le serveur de ce dossier de données répond sur /api/health (code 0 si oui)")
    .action(async () => {
      const config = configFor(program.opts<GlobalOptions>());
      const folder = resolve(config.dataDir);
      const record = readServerRecord(config.dataDir);
      if (!record) throw new RefusedError(frCli.health.noServer(folder));
      const database = recordedDatabase(config);
      if (record.database !== database) throw new RefusedError(frCli.health.otherDatabase(folder, record.database, database));
      if (!recordedProcessAlive(record)) throw new RefusedError(frCli.health.stopped(folder, record.pid));
      const url = `${record.url}/api/health`;
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
      if (!res?.ok) throw new RefusedError(frCli.serverDown(url));
      print(program.opts<GlobalOptions>(), { status: "ok", url: record.url, pid: record.pid, database }, () => "ok");
    });
}
