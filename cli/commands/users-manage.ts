import { frCli } from "../../src/i18n/fr-cli.ts";
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import { adminUserUpdateSchema, parseInput } from "../../src/admin/admin.schemas.ts";
import { type AuditAction, cliActor, recordAudit, userChanges } from "../../src/admin/audit-log.ts";
import { deleteUserByAdmin, getUserByEmailOrFail, grantExtra, setAdmin, setTwoFactor, updateUserByAdmin } from "../../src/admin/admin.service.ts";
import { PLAN_LABELS, toUserDetail } from "../../src/admin/admin.view.ts";
import { createPasswordResetLink } from "../../src/auth/password-reset.ts";
import { assignPlan, stopSubscription } from "../../src/billing/plan.service.ts";
import type { BillingCycle, Plan, UserRow } from "../../src/db/schema/index.ts";
import type { Deps } from "../../src/deps.ts";
import { withDeps } from "../deps.ts";
import { RefusedError } from "../../src/lib/errors.ts";
import type { GlobalOptions } from "../options.ts";
import { dateFr, print } from "../output.ts";
import { cycleArg, onOff, planArg, positiveInt } from "../parse.ts";
import { userSheet } from "../user-sheet.ts";

type Opts = (cmd: Command) => GlobalOptions;

const profileSchema = adminUserUpdateSchema.pick({ first_name: true, last_name: true, email: true }).partial();

/** Finds the account by e-mail, applies `change`, records it in the audit log, prints the account as it now is. */
async function changeUser(
  cmd: Command,
  opts: Opts,
  email: string,
  action: AuditAction,
  done: string,
  change: (deps: Deps, user: UserRow) => UserRow | Promise<UserRow>,
) {
  const user = await withDeps(opts(cmd), async (deps) => {
    const before = await getUserByEmailOrFail(deps, email);
    const after = await change(deps, before);
    await recordAudit(deps.db, { at: deps.clock.now(), actor: cliActor(), action, targetEmail: after.email, changes: userChanges(before, after) });
    return toUserDetail(after, deps.clock.now());
  });
  print(opts(cmd), user, () => `${done}\n\n${userSheet(user)}`);
}

/** Without --yes, ask on a terminal; refuse when nobody can answer (scripts, pipes). */
async function confirmed(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^(o|oui|y|yes)$/i.test((await rl.question(`${question} ${frCli.users.yesNo} `)).trim());
  } finally {
    rl.close();
  }
}

export function registerUserChanges(users: Command, opts: Opts) {
  users
    .command("update")
    .description("modifie le prénom, le nom ou l'email d'un compte")
    .argument("<email>")
    .option("--first-name <prénom>")
    .option("--last-name <nom>")
    .option("--email <email>", "nouvelle adresse")
    .action(async (email: string, o: { firstName?: string; lastName?: string; email?: string }, cmd: Command) => {
      if (o.firstName === undefined && o.lastName === undefined && o.email === undefined) {
        throw new RefusedError(frCli.users.nothingToUpdate);
      }
      const p = parseInput(profileSchema, { first_name: o.firstName, last_name: o.lastName, email: o.email });
      await changeUser(
        cmd,
        opts,
        email,
        "user.update",
        frCli.users.updated,
        async (deps, u) => await updateUserByAdmin(deps, u.id, { firstName: p.first_name, lastName: p.last_name, email: p.email }),
      );
    });

  users
    .command("set-plan")
    .description("attribue un forfait (sans paiement) : renouvellement dans un mois ou un an, requêtes supplémentaires gardées")
    .argument("<email>")
    .argument("<plan>", "trial, basic, pro ou expired", planArg)
    .option("--cycle <cycle>", "monthly ou annual (forfaits payants)", cycleArg)
    .action(async (email: string, plan: Plan, o: { cycle?: BillingCycle }, cmd: Command) => {
      // expired for a Stripe subscriber: the subscription is cancelled at Stripe first (the only change an operator makes through Stripe).
      await changeUser(cmd, opts, email, "user.set_plan", frCli.users.planSet(PLAN_LABELS[plan]), async (deps, u) =>
        plan === "expired" && u.stripeSubscriptionId ? await stopSubscription(deps, u.id, "cli") : await assignPlan(deps, u.id, { plan, cycle: o.cycle }),
      );
    });

  users
    .command("grant")
    .description("offre des requêtes supplémentaires (elles n'expirent pas)")
    .argument("<email>")
    .argument("<n>", "nombre de requêtes", positiveInt("<n>", 100_000))
    .action(async (email: string, n: number, _o: unknown, cmd: Command) => {
      await changeUser(cmd, opts, email, "user.grant", frCli.users.granted(n), async (deps, u) => await grantExtra(deps, u.id, n));
    });

  // Two on/off switches of an account, alike but for what they turn and say.
  const switches = [
    {
      name: "set-admin",
      description: "donne ou retire les droits d'administrateur (ferme ses sessions, révoque ses clés d'API)",
      action: "user.set_admin",
      on: frCli.users.adminOn,
      off: frCli.users.adminOff,
      apply: setAdmin,
    },
    {
      name: "two-factor",
      description: "active ou désactive la double authentification par email",
      action: "user.two_factor",
      on: frCli.users.twoFactorOn,
      off: frCli.users.twoFactorOff,
      apply: setTwoFactor,
    },
  ] as const;
  for (const s of switches) {
    users
      .command(s.name)
      .description(s.description)
      .argument("<email>")
      .argument("<on|off>", "on ou off", onOff)
      .action(async (email: string, on: boolean, _o: unknown, cmd: Command) => {
        await changeUser(cmd, opts, email, s.action, on ? s.on : s.off, (deps, u) => s.apply(deps, u.id, on));
      });
  }

  users
    .command("reset-password")
    .description("crée un lien de réinitialisation du mot de passe, valable une heure")
    .argument("<email>")
    .action(async (email: string, _o: unknown, cmd: Command) => {
      const link = await withDeps(opts(cmd), async (deps) => {
        const user = await getUserByEmailOrFail(deps, email);
        const { url, expiresAt } = await createPasswordResetLink(deps, user.id);
        await recordAudit(deps.db, {
          at: deps.clock.now(),
          actor: cliActor(),
          action: "user.reset_password",
          targetEmail: user.email,
          changes: { reset_link_expires_at: expiresAt.toISOString() },
        });
        return { email: user.email, url, expires_at: expiresAt.toISOString() };
      });
      print(opts(cmd), link, () => frCli.users.resetLink(link.email, dateFr(link.expires_at), link.url));
    });

  users
    .command("delete")
    .description("supprime un compte et ses conversations (les achats restent, anonymisés)")
    .argument("<email>")
    .option("--yes", "ne pas demander de confirmation")
    .action(async (email: string, o: { yes?: boolean }, cmd: Command) => {
      if (!o.yes && !(await confirmed(frCli.users.confirmDelete(email)))) {
        throw new RefusedError(frCli.users.deleteNotConfirmed(email));
      }
      const deleted = await withDeps(opts(cmd), async (deps) => {
        const user = await getUserByEmailOrFail(deps, email);
        await deleteUserByAdmin(deps, user.id);
        await recordAudit(deps.db, { at: deps.clock.now(), actor: cliActor(), action: "user.delete", targetEmail: user.email });
        return { deleted: true, id: user.id, email: user.email };
      });
      print(opts(cmd), deleted, () => frCli.users.deleted(deleted.email, deleted.id));
    });
}
