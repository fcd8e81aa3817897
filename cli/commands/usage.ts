import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { USAGE_DEFAULT_DAYS, USAGE_MAX_DAYS, usageReport } from "../../src/admin/usage-report.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { preciseEuros as eur, print, table } from "../output.ts";
import { positiveInt } from "../parse.ts";

const percent = (r: number) => `${(r * 100).toFixed(1).replace(".", ",")} %`;
const ms = (v: number | null) => (v === null ? "" : `${v} ms`);
const mb = (v: number) => v.toFixed(2).replace(".", ",");

export function registerUsage(program: Command) {
  program
    .command("usage")
    .description(
      "usage des modèles : réponses et dépense par jour, taux de succès, latences, jetons et coût par modèle, plus gros utilisateurs, recherches web",
    )
    .option("--days <n>", `nombre de jours (1 à ${USAGE_MAX_DAYS})`, positiveInt("--days", USAGE_MAX_DAYS), USAGE_DEFAULT_DAYS)
    .action(async (o: { days: number }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const r = await withDeps(opts, async (deps) => await usageReport(deps.db, deps.clock.now(), o.days));
      print(opts, r, () =>
        [
          frCli.usage.title(r.days),
          frCli.usage.spend(eur.format(r.spend.total_eur), eur.format(r.spend.probes_eur), eur.format(r.spend.average_per_answer_eur)),
          "",
          r.answers_per_day.length
            ? table(
                ["Jour", "Réponses", "Échecs", "Coût"],
                r.answers_per_day.map((d) => [d.day, d.answers, d.failed, eur.format(d.eur)]),
              )
            : frCli.usage.noAnswers,
          "",
          r.models.length
            ? table(
                ["Modèle", "Appels", "Succès", "p50", "p95", "Jetons entrée", "Jetons sortie", "Coût"],
                r.models.map((m) => [m.model, m.calls, percent(m.success_rate), ms(m.p50_ms), ms(m.p95_ms), m.tokens_in, m.tokens_out, eur.format(m.eur)]),
              )
            : frCli.usage.noCalls,
          "",
          r.top_users.length
            ? table(
                ["Utilisateur", "Réponses", "Jetons entrée", "Jetons sortie"],
                r.top_users.map((u) => [u.email ?? `n° ${u.user_id}`, u.answers, u.tokens_in, u.tokens_out]),
              )
            : frCli.usage.noUsers,
          "",
          frCli.usage.attachments(r.attachments.files, mb(r.attachments.megabytes)),
          ...(r.attachments.users.length
            ? [
                table(
                  ["Utilisateur", "Fichiers", "Mo"],
                  r.attachments.users.map((u) => [u.email ?? `n° ${u.user_id}`, u.files, mb(u.megabytes)]),
                ),
              ]
            : []),
          "",
          frCli.usage.web(sum(r.web_search.per_day, "searches"), sum(r.web_search.per_day, "fetches")),
          ...(r.web_search.per_day.length
            ? [
                table(
                  ["Jour", "Recherches", "Pages lues"],
                  r.web_search.per_day.map((d) => [d.day, d.searches, d.fetches]),
                ),
                table(
                  ["Utilisateur", "Recherches", "Pages lues"],
                  r.web_search.users.map((u) => [u.email ?? `n° ${u.user_id}`, u.searches, u.fetches]),
                ),
              ]
            : []),
        ].join("\n"),
      );
    });
}

function sum(days: ReadonlyArray<{ searches: number; fetches: number }>, key: "searches" | "fetches"): number {
  return days.reduce((n, d) => n + d[key], 0);
}
