import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { cliActor, recordAudit } from "../../src/admin/audit-log.ts";
import { getUserByEmailOrFail, listUsers } from "../../src/admin/admin.service.ts";
import { parseInput } from "../../src/admin/admin.schemas.ts";
import { PLAN_LABELS, toUserDetail } from "../../src/admin/admin.view.ts";
import { registerSchema } from "../../src/auth/auth.schemas.ts";
import { billingHistory } from "../../src/billing/entitlements.ts";
import { assignPlan } from "../../src/billing/plan.service.ts";
import { PLANS, type Plan } from "../../src/db/schema/index.ts";
import { randomToken } from "../../src/lib/tokens.ts";
import { createUser } from "../../src/users/users.service.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { dateFr, print, table } from "../output.ts";
import { planArg, positiveInt } from "../parse.ts";
import { userSheet } from "../user-sheet.ts";
import { registerUserApiKeys } from "./users-api-keys.ts";
import { registerUserChanges } from "./users-manage.ts";

const PER_PAGE = 20;

function opts(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

export function registerUsers(program: Command) {
  const users = program.command("users").description("gère les comptes utilisateurs");

  users
    .command("list")
    .description(`liste les comptes, les plus récents d'abord (${PER_PAGE} par page)`)
    .option("--plan <plan>", `forfait effectif : ${PLANS.join(", ")}`, planArg)
    .option("--search <texte>", "filtre sur le nom ou l'email")
    .option("--page <n>", "numéro de page", positiveInt("--page"), 1)
    .action(async (o: { plan?: Plan; search?: string; page: number }, cmd: Command) => {
      const page = await withDeps(opts(cmd), async (deps) => await listUsers(deps, { page: o.page, perPage: PER_PAGE, q: o.search?.trim(), plan: o.plan }));
      print(opts(cmd), page, () => {
        if (page.users.length === 0) return page.total ? frCli.users.emptyPage(page.page, page.total) : frCli.users.none;
        const pages = Math.ceil(page.total / PER_PAGE);
        const rows = page.users.map((u) => [
          u.id,
          u.email,
          u.first_name,
          u.last_name,
          PLAN_LABELS[u.subscription_type],
          u.remaining_queries,
          u.trial_days_remaining,
          u.is_admin,
          dateFr(u.created_at),
        ]);
        return `${table(["ID", "Email", "Prénom", "Nom", "Forfait", "Requêtes", "Jours d'essai", "Admin", "Créé le"], rows)}\n\n${frCli.users.page(page.page, pages, page.total)}`;
      });
    });

  users
    .command("show")
    .description("affiche un compte")
    .argument("<email>")
    .action(async (email: string, _o: unknown, cmd: Command) => {
      const user = await withDeps(opts(cmd), async (deps) => {
        const row = await getUserByEmailOrFail(deps, email);
        return toUserDetail(row, deps.clock.now(), await billingHistory(deps.db, row.id));
      });
      print(opts(cmd), user, () => userSheet(user));
    });

  users
    .command("create")
    .description("crée un compte (essai de 7 jours, ou le forfait --plan)")
    .requiredOption("--email <email>", "adresse email")
    .requiredOption("--first-name <prénom>", "prénom")
    .requiredOption("--last-name <nom>", "nom")
    .option("--password <mot de passe>", "mot de passe (6 caractères au moins) ; généré et affiché une fois sinon")
    .option("--admin", "administrateur")
    .option("--plan <plan>", `forfait : ${PLANS.join(", ")}`, planArg)
    .action(async (o: { email: string; firstName: string; lastName: string; password?: string; admin?: boolean; plan?: Plan }, cmd: Command) => {
      const generated = o.password === undefined ? randomToken(12) : undefined;
      const input = parseInput(registerSchema, { email: o.email, password: o.password ?? generated, first_name: o.firstName, last_name: o.lastName });
      const user = await withDeps(
        opts(cmd),
        async (deps) => {
          const now = deps.clock.now();
          let row = await createUser(deps.db, deps.config.passwordHash, now, {
            email: input.email,
            password: input.password,
            firstName: input.first_name,
            lastName: input.last_name,
            isAdmin: o.admin ?? false,
          });
          if (o.plan && o.plan !== "trial") row = await assignPlan(deps, row.id, { plan: o.plan });
          await recordAudit(deps.db, {
            at: now,
            actor: cliActor(),
            action: "user.create",
            targetEmail: row.email,
            changes: { is_admin: row.isAdmin, subscription_type: row.subscriptionType },
          });
          return toUserDetail(row, now);
        },
        { create: true },
      );
      print(opts(cmd), { user, ...(generated && { password: generated }) }, () =>
        [frCli.users.created(user.email, user.id, PLAN_LABELS[user.subscription_type]), ...(generated ? [frCli.users.generatedPassword(generated)] : [])].join(
          "\n",
        ),
      );
    });

  registerUserChanges(users, opts);
  registerUserApiKeys(users, opts);
}
