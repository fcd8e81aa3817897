import type { Command } from "commander";
import { reconcile } from "../../src/billing/reconcile.service.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { print, table } from "../output.ts";

export function registerBilling(program: Command) {
  const billing = program.command("billing").description("paiements Stripe");

  billing
    .command("reconcile")
    .description("compare la base avec Stripe (abonnements, factures payées récentes) et corrige ce que Stripe dit ; affiche chaque différence")
    .option("--dry-run", "montre les différences sans rien corriger")
    .action(async (o: { dryRun?: boolean }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const report = await withDeps(opts, (deps) => reconcile(deps, { dryRun: o.dryRun ?? false }));
      print(opts, report, () => {
        const head = `${report.subscriptions_checked} abonnement(s) et ${report.invoices_checked} facture(s) payée(s) comparés avec Stripe${report.dry_run ? " (simulation : rien n'a été corrigé)" : ""}.`;
        if (report.differences.length === 0) return `${head}\nAucune différence.`;
        const rows = report.differences.map((d) => [d.kind, d.email ?? "", d.stripe_ref, d.detail, d.fixed]);
        const fixed = report.differences.filter((d) => d.fixed).length;
        return `${head}\n\n${table(["Différence", "Compte", "Stripe", "Détail", "Corrigée"], rows)}\n\n${report.differences.length} différence(s), ${fixed} corrigée(s).`;
      });
    });
}
