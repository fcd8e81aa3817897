import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { closeDb } from "../../src/db/client.ts";
import { connectDatabase } from "../../src/db/open.ts";
import { migrateWithBackup, schemaState } from "../../src/db/schema-guard.ts";
import { RefusedError } from "../../src/lib/errors.ts";
import { liveLease } from "../../src/system/lease.ts";
import { configFor, type GlobalOptions } from "../options.ts";
import { print } from "../output.ts";

export function registerMigrate(program: Command) {
  program
    .command("migrate")
    .description("applique les migrations de la base de données (sauvegarde préalable : fichier SQLite, ou pg_dump sur PostgreSQL)")
    .option("--no-backup", "PostgreSQL : migre sans la sauvegarde pg_dump (prise vous-même avant)")
    .action(async (o: { backup: boolean }) => {
      const opts = program.opts<GlobalOptions>();
      const config = configFor(opts);
      const db = await connectDatabase(config);
      try {
        // A running server would go on with a schema it does not know: stop it first (README, Upgrade).
        // (SQLite's lease; on PostgreSQL servers of the previous version keep their schema's tables, migrations only add.)
        const holder = !config.databaseUrl && (await schemaState(db)).status === "behind" ? await liveLease(db, new Date()) : undefined;
        if (holder) throw new RefusedError(frCli.migrate.serverRunning(holder.pid, holder.hostname));
        const { applied, backup } = await migrateWithBackup(db, config.databaseLabel, config.dataDir, o.backup ? "required" : "skip");
        print(opts, { applied, database: config.databaseLabel, backup: backup ?? null }, () =>
          applied ? frCli.migrate.applied(applied, config.databaseLabel, backup ?? null) : frCli.migrate.upToDate(config.databaseLabel),
        );
      } finally {
        await closeDb(db);
      }
    });
}
