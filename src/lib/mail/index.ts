import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "./mailer.ts";
import { createOutboxMailer } from "./outbox.ts";
import { createSmtpMailer } from "./smtp.ts";

export type { Mailer, MailMessage } from "./mailer.ts";

/** The one mailer factory of the server and the tests: SMTP when SMTP_URL is set, else the outbox. */
export function createMailer(config: Config, db: Db, clock: Clock, log: Logger): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer(db, clock, log, { url: config.mail.smtpUrl, from: config.mail.from });
  return createOutboxMailer(db, clock, log);
}

/**
 * Sends without making the caller wait (welcome mail, reset link): a failure
 * is logged and recorded by the mailer, never thrown at the request.
 */
export function sendInBackground(mailer: Mailer, log: Logger, message: Parameters<Mailer["send"]>[0]): Promise<void> {
  return mailer.send(message).catch((e) => {
    log.warn("background mail not delivered", { kind: message.kind, to: message.to, error: e });
  });
}
