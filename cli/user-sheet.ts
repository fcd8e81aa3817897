import { PLAN_LABELS, type UserDetail } from "../src/admin/admin.view.ts";
import { dateFr } from "./output.ts";

/** One account, as a two-column French sheet. */
export function userSheet(u: UserDetail): string {
  const rows: Array<[string, string | number]> = [
    ["Identifiant", u.id],
    ["Email", u.email],
    ["Prénom", u.first_name],
    ["Nom", u.last_name],
    ["Forfait", PLAN_LABELS[u.subscription_type] + (u.billing_cycle ? ` (${u.billing_cycle === "annual" ? "annuel" : "mensuel"})` : "")],
    ["Requêtes restantes", `${u.remaining_queries} (forfait ${u.plan_queries}, supplémentaires ${u.extra_queries})`],
    ["Jours d'essai restants", u.trial_days_remaining],
    ["Prochain renouvellement", dateFr(u.next_renewal_date)],
    ["Administrateur", u.is_admin ? "oui" : "non"],
    ["Double authentification", u.two_factor_enabled ? "activée" : "désactivée"],
    ["Code de parrainage", u.referral_code ?? ""],
    ["Abonnement Stripe", u.stripe_subscription_id ?? "aucun"],
    ["Créé le", dateFr(u.created_at)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const sheet = rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join("\n");
  if (!u.billing_history.length) return sheet;
  // Who changed what and why: refunds, disputes, plan changes, reconciliation.
  const history = u.billing_history.map((h) => `  ${dateFr(h.at)}  ${h.actor.padEnd(9)}  ${h.detail}${h.stripe_ref ? ` [${h.stripe_ref}]` : ""}`);
  return `${sheet}\n\nHistorique de facturation :\n${history.join("\n")}`;
}

