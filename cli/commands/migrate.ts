import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { openDb } from "../../src/db/client.ts";
import { migrateWithBackup, schemaState } from "../../src/db/schema-guard.ts";
import { RefusedError } from "../../src/lib/errors.ts";
import { liveLease } from "../../src/system/lease.ts";
import { configFor, type GlobalOptions } from "../options.ts";
import { print } from "../output.ts";

export function registerMigrate(program: Command) {
  program
    .command("migrate")
    .description("applique les migrations de la base de données")
    .action(() => {
      const opts = program.opts<GlobalOptions>();
      const config = configFor(opts);
      const db = openDb(config.databasePath);
      try {
        // A running server would go on with a schema it does not know: stop it first (README, Upgrade).
        const holder = schemaState(db).status === "behind" ? liveLease(db, new Date()) : undefined;
        if (holder) throw new RefusedError(frCli.migrate.serverRunning(holder.pid, holder.hostname));
        const { applied, backup } = migrateWithBackup(db, config.databasePath, config.dataDir);
        print(opts, { applied, database: config.databasePath, backup: backup ?? null }, () =>
          applied ? frCli.migrate.applied(applied, config.databasePath, backup ?? null) : frCli.migrate.upToDate(config.databasePath),
        );
      } finally {
        db.$client.close();
      }
    });
}
