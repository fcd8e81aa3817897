/**
 * Precise French details that replace an error table text for one case
 * (`new AppError(code, detail)`): the code, and so the HTTP status, stays the
 * table's (src/lib/errors.ts). docs/PRODUCT.md#errors, #promo-codes.
 */
export const frDetails = {
  userNotFound: (email: string) => `Utilisateur introuvable : ${email}`,
  grantRange: (max: number) => `Le nombre de requêtes à offrir doit être un entier entre 1 et ${max}`,
  cancelWithoutStripe:
    "Ce compte a un abonnement Stripe mais le paiement n'est pas configuré (STRIPE_SECRET_KEY) : impossible de le résilier, la suppression est refusée.",
  contactFailed: (support: string) => `Erreur lors de l'envoi. Veuillez réessayer ou nous contacter directement : ${support}`,
  messageTooLong: (max: number) => `Le message est trop long (${max} caractères au plus).`,
  promo: {
    notUsableAtCheckout: "Ce code promo n'est pas encore utilisable pour le paiement. Contactez le support.",
    codeFormat: "Le code doit compter 3 à 32 caractères : lettres, chiffres, tirets.",
    percent: "La réduction doit être un pourcentage entier entre 1 et 100.",
    maxUses: "Le nombre maximal d'utilisations doit être un entier positif.",
    expiresInPast: "La date d'expiration doit être dans le futur.",
    empty: "Veuillez saisir un code.",
    ownReferral: "Vous ne pouvez pas utiliser votre propre code de parrainage.",
    referralInactive: "Ce code de parrainage n'est plus actif.",
    referralUsed: "Vous avez déjà bénéficié d'un parrainage.",
    unknown: "Ce code n'existe pas.",
    expired: "Ce code promo a expiré.",
    usedUp: "Ce code promo a atteint son nombre maximal d'utilisations.",
  },
};
