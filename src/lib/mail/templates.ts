import { frMail as t } from "../../i18n/fr-mail.ts";
import type { MailMessage } from "./mailer.ts";

/**
 * The mails, each as text and HTML; their French words are in src/i18n/fr-mail.ts. Names typed by users are
 * escaped in the HTML; links and codes are ours.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;background:#f5f6fa;margin:0;padding:24px;color:#1f2937">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px">Unisson</h1>
${body}
<p style="font-size:12px;color:#6b7280;margin-top:32px">${t.signature}</p>
</div></body></html>`;
}

function hello(firstName: string): string {
  return t.hello(firstName);
}

export function twoFactorCodeMail(p: { to: string; firstName: string; code: string; minutes: number }): MailMessage {
  const subject = t.twoFactor.subject(p.code);
  const text = [hello(p.firstName), "", `${t.twoFactor.codeIs} ${p.code}`, "", t.twoFactor.validity(p.minutes), t.twoFactor.notYou].join("\n");
  const html = layout(
    subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>${t.twoFactor.codeIs}</p>
<p style="font-size:32px;font-weight:bold;letter-spacing:8px;margin:16px 0">${p.code}</p>
<p>${t.twoFactor.validity(p.minutes)}</p>
<p>${t.twoFactor.notYou}</p>`,
  );
  return { to: p.to, subject, text, html, kind: "two_factor", secrets: [p.code] };
}

export function passwordResetMail(p: { to: string; firstName: string; url: string; minutes: number }): MailMessage {
  const subject = t.reset.subject;
  const text = [hello(p.firstName), "", t.reset.asked, t.reset.openLink, p.url, "", t.reset.validity(p.minutes), t.reset.notYou].join("\n");
  const html = layout(
    subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>${t.reset.asked}</p>
<p><a href="${escapeHtml(p.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">${t.reset.button}</a></p>
<p style="font-size:13px">${t.reset.copyLink} ${escapeHtml(p.url)}</p>
<p>${t.reset.validity(p.minutes)}</p>
<p>${t.reset.notYou}</p>`,
  );
  return { to: p.to, subject, text, html, kind: "reset", secrets: [p.url, escapeHtml(p.url)] };
}

/** After a reset: what ended with the old password, so a surprised owner knows at once. */
export function passwordChangedMail(p: { to: string; firstName: string }): MailMessage {
  const c = t.passwordChanged;
  const text = [hello(p.firstName), "", c.changed, c.revoked, "", c.notYou].join("\n");
  const html = layout(
    c.subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>${c.changed}</p>
<p>${escapeHtml(c.revoked)}</p>
<p>${escapeHtml(c.notYou)}</p>`,
  );
  return { to: p.to, subject: c.subject, text, html, kind: "password_changed" };
}

export function welcomeMail(p: { to: string; firstName: string; publicUrl: string }): MailMessage {
  const subject = t.welcome.subject;
  const text = [
    hello(p.firstName),
    "",
    t.welcome.welcome,
    `${t.welcome.trialStarts} ${t.welcome.trialTerms}.`,
    `${t.welcome.firstQuestion} : ${p.publicUrl}/`,
  ].join("\n");
  const html = layout(
    subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>${t.welcome.welcome}</p>
<p>${t.welcome.trialStarts} <strong>${t.welcome.trialTerms}</strong>.</p>
<p><a href="${escapeHtml(p.publicUrl)}/">${t.welcome.firstQuestion}</a></p>`,
  );
  return { to: p.to, subject, text, html, kind: "welcome" };
}
