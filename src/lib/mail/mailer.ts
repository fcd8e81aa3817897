/** A mail the product sends; `kind` names its template (two_factor, reset, welcome, contact...). */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
  replyTo?: string;
  /**
   * Live secrets the mail carries (a two-factor code, a reset link): once the
   * mail left by SMTP, the copy kept in mail_outbox has them masked, so the
   * database and its backups hold no usable code or link (docs/SECURITY.md).
   */
  secrets?: string[];
};

const REDACTED = "[masqué]";

/** The mail as it may rest in the database: every secret it carries masked, in the subject too. */
export function redacted(m: MailMessage): MailMessage {
  const secrets = (m.secrets ?? []).filter((s) => s.length >= 4);
  if (secrets.length === 0) return m;
  const mask = (text: string) => secrets.reduce((t, s) => t.split(s).join(REDACTED), text);
  return { ...m, subject: mask(m.subject), text: mask(m.text), html: m.html === undefined ? undefined : mask(m.html) };
}

/**
 * Sends mail. Resolves once the mail is delivered to SMTP or kept in the
 * outbox; rejects with AppError("MAIL_FAILED") when SMTP refuses or times out.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
