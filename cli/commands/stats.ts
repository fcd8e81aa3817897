import type { Command } from "commander";
import { getStats } from "../../src/admin/admin.service.ts";
import { PLAN_LABELS } from "../../src/admin/admin.view.ts";
import { PLANS } from "../../src/db/schema/index.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../index.ts";
import { print, table } from "../output.ts";

const euros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

export function registerStats(program: Command) {
  program
    .command("stats")
    .description("statistiques du tableau de bord d'administration")
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const s = await withDeps(opts, (deps) => getStats(deps));
      print(opts, s, () =>
        [
          table(
            ["Indicateur", "Valeur"],
            [
              ["Utilisateurs", s.total_users],
              ["Inscrits ces 7 derniers jours", s.recent_users_7_days],
              ["Achats payés", s.completed_purchases],
              ["Chiffre d'affaires", euros.format(s.total_revenue)],
            ],
          ),
          "",
          table(["Forfait", "Utilisateurs"], PLANS.map((p) => [PLAN_LABELS[p], s.users_by_subscription[p]])),
        ].join("\n"),
      );
    });
}
