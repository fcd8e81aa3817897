import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { listAudit } from "../../src/admin/audit-log.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { dateFr, print, table } from "../output.ts";
import { positiveInt } from "../parse.ts";

/** What changed, as one short line: "is_admin: false → true, email: a → b". */
function changesLine(changes: Record<string, unknown> | null): string {
  if (!changes) return "";
  return Object.entries(changes)
    .map(([k, v]) => (Array.isArray(v) && v.length === 2 ? `${k}: ${String(v[0])} → ${String(v[1])}` : `${k}: ${String(v)}`))
    .join(", ");
}

export function registerAudit(program: Command) {
  program
    .command("audit")
    .description("journal des actions d'administration (API admin et CLI) : qui, quand, quoi, les plus récentes d'abord")
    .option("--user <email>", "seulement les actions sur ce compte")
    .option("--last <n>", "nombre d'entrées (100 par défaut)", positiveInt("--last", 100_000), 100)
    .action(async (o: { user?: string; last: number }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const entries = await withDeps(opts, async (deps) => await listAudit(deps.db, { email: o.user, last: o.last }));
      print(opts, entries, () =>
        entries.length
          ? table(
              ["Date", "Par", "Action", "Compte", "Changements"],
              entries.map((e) => [dateFr(e.at), e.actor, e.action, e.target, changesLine(e.changes)]),
            )
          : frCli.audit.empty,
      );
    });
}
