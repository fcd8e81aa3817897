import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { getStats } from "../../src/admin/admin.service.ts";
import { aiCosts } from "../../src/ai/costs.ts";
import { PLAN_LABELS } from "../../src/admin/admin.view.ts";
import { PLANS } from "../../src/db/schema/index.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { preciseEuros as precise, print, table } from "../output.ts";

const euros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

export function registerStats(program: Command) {
  program
    .command("stats")
    .description("statistiques du tableau de bord d'administration")
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      // The dashboard's numbers, then what the AI calls cost (issue "live answers": spend per day, per model, per answer).
      const s = await withDeps(opts, async (deps) => ({ ...(await getStats(deps)), ai_costs: await aiCosts(deps.db, deps.clock.now()) }));
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
          table(
            ["Forfait", "Utilisateurs"],
            PLANS.map((p) => [PLAN_LABELS[p], s.users_by_subscription[p]]),
          ),
          "",
          frCli.stats.aiCosts(s.ai_costs.days, precise.format(s.ai_costs.total_eur), s.ai_costs.answers, precise.format(s.ai_costs.average_per_answer_eur)),
          table(
            ["Modèle", "Appels", "Coût"],
            s.ai_costs.spend_by_model.map((m) => [m.model, m.calls, precise.format(m.eur)]),
          ),
          "",
          table(
            ["Jour", "Coût"],
            s.ai_costs.spend_by_day.map((d) => [d.day, precise.format(d.eur)]),
          ),
        ].join("\n"),
      );
    });
}
