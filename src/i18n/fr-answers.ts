/**
 * The French `message` of successful API answers (errors are in
 * src/lib/errors.ts). docs/PRODUCT.md#two-factor, #password-reset,
 * #data-rights, #contact, #admin, #promo-codes.
 */
export const frAnswers = {
  codeSent: "Un code de vérification a été envoyé à votre adresse email.",
  loggedOut: "Vous êtes déconnecté.",
  resetMailSent: "Si un compte existe avec cette adresse, un email de réinitialisation vient d'être envoyé.",
  passwordChanged: "Votre mot de passe a été modifié. Vous pouvez maintenant vous connecter.",
  accountDeleted: "Votre compte a été supprimé.",
  contactSent: "Votre message a bien été envoyé. Nous vous répondrons rapidement.",
  userDeleted: "Utilisateur supprimé avec succès",
  couponValid: (percent: number) => `Code promo valide : -${percent} % sur votre paiement.`,
};
