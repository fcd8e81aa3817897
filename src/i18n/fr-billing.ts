/**
 * The French texts of billing outside the error table (src/lib/errors.ts):
 * the messages of billing answers the user reads, and the `detail` of every
 * `billing_changes` row (shown by the admin user view and `unisson users
 * show`). docs/PRODUCT.md#plan-changes, #refunds, #referral.
 */
export const frBilling = {
  /** Answers the user reads (pricing overlay, referral card, promo field). */
  user: {
    upgraded: (cycle: string, added: number) => `Votre abonnement est passé au forfait Pro (${cycle}) : ${added} requêtes ont été ajoutées à votre solde.`,
    cancelScheduled: (when: string) => `Votre abonnement sera résilié le ${when}. Vous conservez votre accès jusqu'à cette date.`,
    changeScheduled: (plan: string, cycle: string, when: string) =>
      `Votre passage au forfait ${plan} (${cycle}) prendra effet le ${when}. Vous conservez votre forfait actuel jusqu'à cette date.`,
    changeCancelled: "Votre demande de changement a été annulée.",
    upgradeCredit: (credit: string) => `Crédit de ${credit} pour la période non utilisée de votre forfait actuel.`,
    annualSavings: (savings: string, badge: string | null) => `Économisez ${savings} par an (${badge}).`,
    referralShare: (bonus: number) => `Partagez votre code : vous et votre filleul recevez chacun +${bonus} requêtes lors de son abonnement.`,
    referralGoPro: (bonus: number) =>
      `Passez au forfait Pro pour obtenir votre code de parrainage personnel : +${bonus} requêtes pour vous et pour chaque filleul.`,
    referralValid: (bonus: number) => `Code de parrainage valide : vous et votre parrain recevrez chacun ${bonus} requêtes bonus lors de votre abonnement.`,
  },
  /** `billing_changes.detail`: why an account's plan or balance moved. */
  change: {
    refund: (amount: string, detail: string) => `Remboursement intégral (${amount}) : ${detail}`,
    refundKept: "achat marqué remboursé, forfait conservé par l'opérateur.",
    refundMarked: "achat marqué remboursé.",
    packTakenBack: (n: number, owed: number) => `${n} requête(s) du pack reprise(s) sur ${owed}.`,
    planEndedByRefund: "Forfait terminé : le paiement de l'abonnement a été rendu.",
    bonusTakenBack: (n: number, bonus: number) => `Bonus de parrainage repris : ${n} requête(s) sur ${bonus}.`,
    packHeld: (n: number) => `${n} requête(s) du pack gelée(s).`,
    disputeOpen: "paiement contesté.",
    planHeld: (n: number) => `paiement contesté : forfait conservé, ${n} requête(s) de la période gelée(s) jusqu'à la décision.`,
    planGivenBack: (n: number) => `${n} requête(s) de la période rendue(s).`,
    heldGivenBack: (n: number) => `${n} requête(s) rendue(s).`,
    disputeWon: "litige gagné, achat rétabli.",
    stripeEnded: (status: string) => `Abonnement Stripe terminé (${status}) : forfait expiré.`,
    alignedOnStripe: (label: string, end: string) => `Forfait aligné sur Stripe : ${label}, période jusqu'au ${end}.`,
    upgradePaid: (added: number) => `Mise à niveau Pro payée : +${added} requêtes.`,
    renewalPaid: (invoice: string, label: string, allowance: number) =>
      `Renouvellement payé (${invoice}) : requêtes du forfait ${label} remises à ${allowance}.`,
    duplicateCancelled: (subId: string, refunded: string | null, kept: string) =>
      `Second abonnement Stripe ${subId} résilié${refunded ? ` et remboursé (${refunded})` : ""} : le compte garde ${kept}.`,
    grantedWithoutPayment: (label: string) => `Forfait ${label} attribué sans paiement.`,
    cancelledByOperator: (subId: string) => `Abonnement Stripe ${subId} résilié immédiatement par l'opérateur : forfait expiré.`,
    scheduledCancelApplied: "Résiliation programmée appliquée : forfait expiré.",
    scheduledChangeApplied: (plan: string, cycle: string) => `Changement programmé appliqué : forfait ${plan} (${cycle}).`,
    monthRenewed: "Requêtes du mois renouvelées.",
    packPaid: (name: string, n: number) => `${name} payé : +${n} requêtes.`,
    referralBonus: (n: number) => `Bonus de parrainage : +${n} requêtes.`,
    balanceSet: (n: number) => `Requêtes restantes fixées à ${n}.`,
    trialSet: (days: number) => `Essai prolongé ou réduit : ${days} jour(s) restant(s).`,
    granted: (n: number) => `${n} requête(s) offerte(s).`,
    deletion: (userId: number, subId: string) => `Compte n° ${userId} supprimé : abonnement Stripe ${subId} résilié immédiatement.`,
    unknownToStripe: (subId: string | null) => `Abonnement ${subId} inconnu de Stripe : forfait expiré.`,
  },
  /** What `unisson billing reconcile` prints, one line per difference. */
  reconcile: {
    notConfigured: "Stripe n'est pas configuré (STRIPE_SECRET_KEY absent) : rien à comparer.",
    snapshot: (plan: string, cycle: string | null, end: string, subId: string | null) =>
      `${plan}${cycle ? `/${cycle}` : ""}, période jusqu'au ${end}, abonnement ${subId ?? "aucun"}`,
    orphanKind: "abonnement orphelin",
    orphan: (userId: string | undefined) => `abonnement actif pour le compte n° ${userId}, qui n'existe plus : résilié.`,
    duplicateKind: "abonnement en double",
    duplicate: (kept: string) => `second abonnement actif, le compte garde ${kept} : résilié et remboursé.`,
    endedKind: "abonnement terminé",
    notCreditedKind: "renouvellement non crédité",
    differentKind: "forfait différent",
    goneKind: "abonnement disparu",
    gone: (plan: string) => `Stripe ne connaît pas cet abonnement : forfait ${plan} expiré.`,
    compare: (status: string, says: string | null, before: string, after: string) =>
      `Stripe : ${status}${says ? ` ${says}` : ""} ; base : ${before} → ${after}.`,
    stripeSays: (plan: string, cycle: string, end: string) => `${plan}/${cycle} jusqu'au ${end}`,
    unrecordedKind: "paiement non enregistré",
    unrecorded: (invoice: string, euros: number) => `facture payée ${invoice} (${euros} €) absente des achats : enregistrée.`,
  },
};
