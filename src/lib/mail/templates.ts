import type { MailMessage } from "./mailer.ts";

/**
 * French mail templates, each as text and HTML. Names typed by users are
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
<p style="font-size:12px;color:#6b7280;margin-top:32px">Unisson — plusieurs IA, une seule réponse.</p>
</div></body></html>`;
}

function hello(firstName: string): string {
  return firstName ? `Bonjour ${firstName},` : "Bonjour,";
}

export function twoFactorCodeMail(p: { to: string; firstName: string; code: string; minutes: number }): MailMessage {
  const subject = `Votre code de connexion Unisson : ${p.code}`;
  const text = [
    hello(p.firstName),
    "",
    `Votre code de vérification Unisson est : ${p.code}`,
    "",
    `Ce code est valable ${p.minutes} minutes. Ne le communiquez à personne.`,
    "Si vous n'êtes pas à l'origine de cette connexion, changez votre mot de passe.",
  ].join("\n");
  const html = layout(
    subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>Votre code de vérification Unisson est :</p>
<p style="font-size:32px;font-weight:bold;letter-spacing:8px;margin:16px 0">${p.code}</p>
<p>Ce code est valable ${p.minutes} minutes. Ne le communiquez à personne.</p>
<p>Si vous n'êtes pas à l'origine de cette connexion, changez votre mot de passe.</p>`,
  );
  return { to: p.to, subject, text, html, kind: "two_factor", secrets: [p.code] };
}

export function passwordResetMail(p: { to: string; firstName: string; url: string; minutes: number }): MailMessage {
  const subject = "Réinitialisation de votre mot de passe Unisson";
  const text = [
    hello(p.firstName),
    "",
    "Vous avez demandé la réinitialisation de votre mot de passe Unisson.",
    "Ouvrez ce lien pour choisir un nouveau mot de passe :",
    p.url,
    "",
    `Ce lien est valable ${p.minutes} minutes et ne peut servir qu'une fois.`,
    "Si vous n'avez rien demandé, ignorez cet email : votre mot de passe reste inchangé.",
  ].join("\n");
  const html = layout(
    subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>Vous avez demandé la réinitialisation de votre mot de passe Unisson.</p>
<p><a href="${escapeHtml(p.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">Choisir un nouveau mot de passe</a></p>
<p style="font-size:13px">Ou copiez ce lien : ${escapeHtml(p.url)}</p>
<p>Ce lien est valable ${p.minutes} minutes et ne peut servir qu'une fois.</p>
<p>Si vous n'avez rien demandé, ignorez cet email : votre mot de passe reste inchangé.</p>`,
  );
  return { to: p.to, subject, text, html, kind: "reset", secrets: [p.url, escapeHtml(p.url)] };
}

export function welcomeMail(p: { to: string; firstName: string; publicUrl: string }): MailMessage {
  const subject = "Bienvenue sur Unisson";
  const text = [
    hello(p.firstName),
    "",
    "Bienvenue sur Unisson : plusieurs IA, une seule réponse.",
    "Votre essai gratuit commence maintenant : 5 requêtes pendant 7 jours.",
    `Posez votre première question : ${p.publicUrl}/`,
  ].join("\n");
  const html = layout(
    subject,
    `<p>${escapeHtml(hello(p.firstName))}</p>
<p>Bienvenue sur Unisson : plusieurs IA, une seule réponse.</p>
<p>Votre essai gratuit commence maintenant : <strong>5 requêtes pendant 7 jours</strong>.</p>
<p><a href="${escapeHtml(p.publicUrl)}/">Posez votre première question</a></p>`,
  );
  return { to: p.to, subject, text, html, kind: "welcome" };
}
