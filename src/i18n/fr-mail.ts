/**
 * The French texts of the mails Unisson sends (docs/PRODUCT.md#mails): the
 * two-factor code, the reset link and its confirmation, the welcome mail, and the contact form's
 * message to the support team. The HTML layout and escaping stay in
 * src/lib/mail/templates.ts; only the words live here.
 */
export const frMail = {
  hello: (firstName: string) => (firstName ? `Bonjour ${firstName},` : "Bonjour,"),
  signature: "Unisson — plusieurs IA, une seule réponse.",
  twoFactor: {
    subject: (code: string) => `Votre code de connexion Unisson : ${code}`,
    codeIs: "Votre code de vérification Unisson est :",
    validity: (minutes: number) => `Ce code est valable ${minutes} minutes. Ne le communiquez à personne.`,
    notYou: "Si vous n'êtes pas à l'origine de cette connexion, changez votre mot de passe.",
  },
  reset: {
    subject: "Réinitialisation de votre mot de passe Unisson",
    asked: "Vous avez demandé la réinitialisation de votre mot de passe Unisson.",
    openLink: "Ouvrez ce lien pour choisir un nouveau mot de passe :",
    button: "Choisir un nouveau mot de passe",
    copyLink: "Ou copiez ce lien :",
    validity: (minutes: number) => `Ce lien est valable ${minutes} minutes et ne peut servir qu'une fois.`,
    notYou: "Si vous n'avez rien demandé, ignorez cet email : votre mot de passe reste inchangé.",
  },
  passwordChanged: {
    subject: "Votre mot de passe Unisson a été modifié",
    changed: "Le mot de passe de votre compte Unisson vient d'être modifié.",
    revoked:
      "Par sécurité, toutes vos sessions ont été fermées et vos appareils mémorisés oubliés. Vos clés d'API ont été révoquées : créez-en de nouvelles dans « Mon abonnement » pour vos outils.",
    notYou: "Si vous n'êtes pas à l'origine de ce changement, demandez un nouveau lien de réinitialisation et contactez-nous.",
  },
  welcome: {
    subject: "Bienvenue sur Unisson",
    welcome: "Bienvenue sur Unisson : plusieurs IA, une seule réponse.",
    trialStarts: "Votre essai gratuit commence maintenant :",
    trialTerms: "5 requêtes pendant 7 jours",
    firstQuestion: "Posez votre première question",
  },
  contact: {
    subject: (subject: string) => `[Contact Unisson] ${subject}`,
    visitor: "visiteur sans compte connecté",
    account: (userId: number) => `compte n° ${userId}`,
    heading: (id: number) => `Message de contact n° ${id}`,
    from: "De :",
    subjectLabel: "Sujet :",
  },
};
