import type { Transporter } from "nodemailer";
import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/index.ts";
import type { Clock } from "../clock.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { type Mailer, type MailMessage, redacted } from "./mailer.ts";

/**
 * Bounds on every SMTP step: a dead or silent server answers the caller with
 * MAIL_FAILED in seconds instead of holding the request open.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

export type SmtpOptions = { url: string; from: string; timeouts?: Partial<Record<keyof typeof SMTP_TIMEOUTS, number>> };

/**
 * SMTP_URL set: nodemailer over SMTP (smtp:// with STARTTLS when offered,
 * smtps:// for implicit TLS). Every mail, sent or failed, is also recorded in
 * mail_outbox so operators can see what went out (`unisson mail list`), with
 * its code or link masked: the recipient has it, the database needs it not.
 */
export function createSmtpMailer(db: Db, clock: Clock, log: Logger, opts: SmtpOptions): Mailer {
  // nodemailer is loaded at the first mail, not at every start of the executable (docs/BENCHMARKS.md, cold start).
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport({ url: opts.url, ...SMTP_TIMEOUTS, ...opts.timeouts })));
  return {
    async send(m) {
      try {
        await (await transporter()).sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html, replyTo: m.replyTo });
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        await record(db, clock, m, "failed", error);
        log.error("mail failed", { to: m.to, kind: m.kind, error });
        throw new AppError("MAIL_FAILED");
      }
      await record(db, clock, m, "sent");
      // Not the subject: a two-factor mail carries its code there, and logs are not a second factor's place.
      log.info("mail sent", { to: m.to, kind: m.kind });
    },
  };
}

async function record(db: Db, clock: Clock, mail: MailMessage, status: "sent" | "failed", error?: string) {
  const now = clock.now();
  const m = redacted(mail);
  await db.insert(mailOutbox).values({
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html ?? null,
    kind: m.kind,
    status,
    error: error?.slice(0, 500) ?? null,
    createdAt: now,
    sentAt: status === "sent" ? now : null,
  });
}
