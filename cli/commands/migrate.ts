import type { Command } from "commander";
import { openDb } from "../../src/db/client.ts";
import { migrateWithBackup } from "../../src/db/schema-guard.ts";
import { configFor, type GlobalOptions } from "../index.ts";
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
        // Beside a running server too: WAL readers go on, and a migration is one transaction.
        const { applied, backup } = migrateWithBackup(db, config.databasePath, config.dataDir);
        print(opts, { applied, database: config.databasePath, backup: backup ?? null }, () =>
          applied ? `${applied} migration(s) appliquée(s) à ${config.databasePath}${backup ? ` (sauvegarde préalable : ${backup})` : ""}` : `Base à jour : ${config.databasePath}`,
        );
      } finally {
        db.$client.close();
      }
    });
}
