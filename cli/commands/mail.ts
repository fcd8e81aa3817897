import { frCli } from "../../src/i18n/fr-cli.ts";
import type { Command } from "commander";
import { listMail } from "../../src/admin/admin.service.ts";
import { withDeps } from "../deps.ts";
import type { GlobalOptions } from "../options.ts";
import { dateFr, print, table } from "../output.ts";
import { positiveInt } from "../parse.ts";

const STATUS = frCli.mail.status;

export function registerMail(program: Command) {
  const mail = program.command("mail").description("emails envoyés ou gardés dans la boîte d'envoi (sans SMTP_URL)");

  mail
    .command("list")
    .description("les derniers emails, les plus récents d'abord, avec leur texte")
    .option("--last <n>", "nombre d'emails", positiveInt("--last", 1000), 20)
    .action(async (o: { last: number }, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const rows = await withDeps(opts, async (deps) => await listMail(deps, o.last));
      const json = rows.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        kind: m.kind,
        status: m.status,
        error: m.error,
        text: m.text,
        created_at: m.createdAt.toISOString(),
        sent_at: m.sentAt?.toISOString() ?? null,
      }));
      print(opts, json, () => {
        if (!rows.length) return frCli.mail.empty;
        const head = table(
          ["ID", "Date", "Destinataire", "Type", "État", "Sujet"],
          rows.map((m) => [m.id, dateFr(m.createdAt), m.to, m.kind, STATUS[m.status], m.subject]),
        );
        // The text too: without SMTP, this is how an operator reads a code or a reset link.
        const bodies = rows.map((m) => frCli.mail.body(m.id, m.to, m.subject, m.text, m.error));
        return [head, "", ...bodies].join("\n");
      });
    });
}
