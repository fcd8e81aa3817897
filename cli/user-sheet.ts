import { frCli } from "../src/i18n/fr-cli.ts";
import { PLAN_LABELS, type UserDetail } from "../src/admin/admin.view.ts";
import { dateFr } from "./output.ts";

/** One account, as a two-column French sheet. */
export function userSheet(u: UserDetail): string {
  const rows: Array<[string, string | number]> = [
    ["Identifiant", u.id],
    ["Email", u.email],
    ["Prénom", u.first_name],
    ["Nom", u.last_name],
    ["Forfait", PLAN_LABELS[u.subscription_type] + (u.billing_cycle ? ` (${frCli.sheet.cycle(u.billing_cycle === "annual")})` : "")],
    ["Requêtes restantes", frCli.sheet.remaining(u.remaining_queries, u.plan_queries, u.extra_queries)],
    ["Jours d'essai restants", u.trial_days_remaining],
    ["Prochain renouvellement", dateFr(u.next_renewal_date)],
    ["Administrateur", u.is_admin ? frCli.sheet.yes : frCli.sheet.no],
    ["Double authentification", u.two_factor_enabled ? frCli.sheet.on : frCli.sheet.off],
    ["Code de parrainage", u.referral_code ?? ""],
    ["Abonnement Stripe", u.stripe_subscription_id ?? frCli.sheet.none],
    ["Créé le", dateFr(u.created_at)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const sheet = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join("\n");
  if (!u.billing_history.length) return sheet;
  // Who changed what and why: refunds, disputes, plan changes, reconciliation.
  const history = u.billing_history.map((h) => `  ${dateFr(h.at)}  ${h.actor.padEnd(9)}  ${h.detail}${h.stripe_ref ? ` [${h.stripe_ref}]` : ""}`);
  return `${sheet}\n\n${frCli.sheet.billingHistory}\n${history.join("\n")}`;
}
