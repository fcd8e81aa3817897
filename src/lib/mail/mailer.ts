/** A mail the product sends; `kind` names its template (two_factor, reset, welcome, contact...). */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
  replyTo?: string;
};

/**
 * Sends mail. Resolves once the mail is delivered to SMTP or kept in the
 * outbox; rejects with AppError("MAIL_FAILED") when SMTP refuses or times out.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
