import type { Command } from "commander";
import { databaseJobs } from "../../src/jobs/index.ts";
import { runJobsOnce } from "../../src/jobs/scheduler.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { print, table } from "../output.ts";

export function registerRenewals(program: Command) {
  const renewals = program.command("renewals").description("renouvellements et tâches planifiées");

  renewals
    .command("run")
    .description("exécute maintenant, une fois, les tâches planifiées de la base (changements de forfait, renouvellements, fins d'essai, nettoyage)")
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      // Every job is idempotent and conditional on the state it reads: safe beside the running server.
      const outcome = await withDeps(opts, (deps) => runJobsOnce(deps, databaseJobs));
      print(opts, outcome, () =>
        table(
          ["Tâche", "Résultat"],
          Object.entries(outcome).map(([job, r]) => [job, JSON.stringify(r ?? null)]),
        ),
      );
    });
}
