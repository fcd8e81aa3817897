import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { backupDatabase } from "../../src/admin/backup.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { print } from "../output.ts";

export function registerBackup(program: Command) {
  program
    .command("backup")
    .description("copie cohérente de la base (VACUUM INTO), possible pendant que le serveur tourne ; vérifie la copie")
    .argument("<fichier>", "fichier à créer (jamais remplacé s'il existe)")
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const r = await withDeps(opts, async (deps) => await backupDatabase(deps.db, file), { allowBehind: true });
      print(opts, r, () => frCli.backup.written(r.file, (r.bytes / 1024).toFixed(0)));
    });
}
