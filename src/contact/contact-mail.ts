import { frMail } from "../i18n/fr-mail.ts";
import type { MailMessage } from "../lib/mail/mailer.ts";
import { escapeHtml } from "../lib/mail/templates.ts";
import type { ContactInput } from "./contact.schemas.ts";

/** A header never carries a line break typed by a visitor (no header injection). */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ").trim();
}

/** The message as the support team receives it: reply-to the sender, so "Répondre" answers them. */
export function contactMail(p: ContactInput & { to: string; id: number; userId: number | null }): MailMessage {
  const t = frMail.contact;
  const subject = t.subject(oneLine(p.subject));
  const from = `${oneLine(p.name)} <${p.email}>`;
  const account = p.userId === null ? t.visitor : t.account(p.userId);
  const text = [t.heading(p.id), `${t.from} ${from} (${account})`, `${t.subjectLabel} ${oneLine(p.subject)}`, "", p.message].join("\n");
  const html = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>
<p>${t.heading(p.id)}<br>${t.from} ${escapeHtml(from)} (${escapeHtml(account)})<br>${t.subjectLabel} ${escapeHtml(oneLine(p.subject))}</p>
<pre style="white-space:pre-wrap;font-family:inherit">${escapeHtml(p.message)}</pre></body></html>`;
  return { to: p.to, subject, text, html, kind: "contact", replyTo: p.email };
}
