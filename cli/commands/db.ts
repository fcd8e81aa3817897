import { frCli } from "../../src/i18n/fr-cli.ts";
import { frOps } from "../../src/i18n/fr-ops.ts";
import { postgresReason } from "../../src/db/open-failure.ts";
import type { Command } from "commander";
import { copyDatabase } from "../../src/db/copy/copy-database.ts";
import { copyKeys, councilKeysMove } from "../../src/db/copy/council-keys.ts";
import { postgresSide, type Side, sqliteSide } from "../../src/db/copy/sides.ts";
import { isPostgresUrl, safeUrl } from "../../src/db/pg/postgres-url.ts";
import { refuseMissing } from "../../src/db/schema-guard.ts";
import { RefusedError } from "../../src/lib/errors.ts";
import { configFor, type GlobalOptions } from "../options.ts";
import { print } from "../output.ts";

/** `sqlite:/abs/file.db`, `sqlite:relative.db` or `sqlite:///abs/file.db`: the file's path. */
function sqlitePath(url: string): string | undefined {
  const m = /^sqlite:(?:\/\/(?=\/))?(.+)$/i.exec(url);
  return m?.[1];
}

async function openPostgres(url: string): Promise<Side> {
  try {
    return await postgresSide(url);
  } catch (e) {
    // The cause named as the server and every other command name it (src/db/open-failure.ts); anything else as it came.
    const { message } = e as { message?: string };
    throw new RefusedError(frOps.database.pgUnreachable(safeUrl(url), (await postgresReason(e, url)) ?? message ?? String(e)));
  }
}

/**
 * Moving between SQLite and PostgreSQL (docs/SCALING.md). Here DATABASE_URL
 * names the PostgreSQL database to copy back from, and the command opens
 * both databases itself with explicit tables (never the process-wide
 * selection of schema/index.ts that the other commands use).
 */
export function registerDb(program: Command) {
  const db = program.command("db").description("base de données : copie entre SQLite et PostgreSQL");
  db.command("copy")
    .description(
      "copie toute la base vers une base vide : la base SQLite (DATA_DIR, DATABASE_PATH) vers --to postgres://…, ou la base PostgreSQL de DATABASE_URL vers --to sqlite:/chemin/fichier.db",
    )
    .requiredOption("--to <url>", "base de destination, vide : postgres://… ou sqlite:/chemin/fichier.db")
    .addHelpText(
      "after",
      "\nClés d'API du conseil : ouvertes avec SECRET_KEY (sinon le fichier secret.key du dossier de données), puis chiffrées de nouveau avec TARGET_SECRET_KEY (sinon SECRET_KEY), la SECRET_KEY de la destination. Une clé illisible, ou aucune clé pour la destination : copie refusée avant toute écriture.",
    )
    .action(async (o: { to: string }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
      // The rest of the configuration as every command reads it; DATABASE_URL is this command's alone.
      const config = configFor(opts, { ...process.env, DATABASE_URL: undefined });
      const toSqlite = sqlitePath(o.to);
      if (!isPostgresUrl(o.to) && !toSqlite) throw new RefusedError(frCli.db.badTarget);

      let source: Side | undefined;
      let target: Side | undefined;
      try {
        if (toSqlite) {
          if (!databaseUrl || !isPostgresUrl(databaseUrl)) throw new RefusedError(frCli.db.noSqliteSource);
          source = await openPostgres(databaseUrl);
          target = sqliteSide(toSqlite);
        } else {
          if (databaseUrl) throw new RefusedError(frCli.db.samePostgres);
          refuseMissing(config.databasePath);
          source = sqliteSide(config.databasePath);
          target = await openPostgres(o.to);
        }
        // Checked before anything is written: every council key opens, and there is a key to seal it for the target.
        const keys = copyKeys({ secretKey: config.secretKey, targetSecretKey: process.env.TARGET_SECRET_KEY, dataDir: config.dataDir }, source);
        const { reseal, resealed } = await councilKeysMove(source, keys);
        const report = { ...(await copyDatabase(source, target, reseal)), council_keys_resealed: resealed };
        print(opts, report, () =>
          [
            frCli.db.copied(report.rows, report.tables.length, report.from, report.to),
            ...report.tables.map((t) => `  ${t.table} : ${t.rows}`),
            ...(resealed > 0 ? [frCli.db.keys.resealed(resealed)] : []),
          ].join("\n"),
        );
      } finally {
        await source?.close();
        await target?.close();
      }
    });
}
