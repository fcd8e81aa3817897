import { frCli } from "../../src/i18n/fr-cli.ts";
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
      const report = await withDeps(opts, async (deps) => await reconcile(deps, { dryRun: o.dryRun ?? false }));
      print(opts, report, () => {
        const head = frCli.billing.compared(report.subscriptions_checked, report.invoices_checked, report.dry_run);
        if (report.differences.length === 0) return `${head}\n${frCli.billing.noDifference}`;
        const rows = report.differences.map((d) => [d.kind, d.email ?? "", d.stripe_ref, d.detail, d.fixed]);
        const fixed = report.differences.filter((d) => d.fixed).length;
        return `${head}\n\n${table(["Différence", "Compte", "Stripe", "Détail", "Corrigée"], rows)}\n\n${frCli.billing.differences(report.differences.length, fixed)}`;
      });
    });
}
