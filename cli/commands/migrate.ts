import type { Command } from "commander";
import { openDb } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
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
        const applied = runMigrations(db);
        print(opts, { applied, database: config.databasePath }, () =>
          applied ? `${applied} migration(s) appliquée(s) à ${config.databasePath}` : `Base à jour : ${config.databasePath}`,
        );
      } finally {
        db.$client.close();
      }
    });
}
