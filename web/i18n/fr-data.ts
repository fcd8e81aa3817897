/**
 * The French strings of issue 23: the history tab's search and date groups,
 * the conversation export, and "Mon compte" (your data, deleting your account).
 * Kept apart from fr.ts so these screens can change without touching it.
 */
export const frData = {
  history: {
    searchLabel: "Rechercher dans vos conversations",
    searchPlaceholder: "Rechercher un mot d'une question ou d'une réponse…",
    noResults: (q: string) => `Aucune conversation ne contient « ${q} ».`,
    results: (n: number) => (n === 0 ? "Aucun résultat" : `${n} résultat${n > 1 ? "s" : ""}, les plus pertinents d'abord`),
    loadMore: "Charger plus de conversations",
    loadingMore: "Chargement des conversations suivantes…",
    listError: "Erreur lors du chargement de l'historique. Veuillez réessayer.",
    retry: "Réessayer",
    groups: { today: "Aujourd'hui", yesterday: "Hier", week: "7 derniers jours", month: "30 derniers jours", older: "Plus ancien" },
  },
  export: {
    label: "Exporter",
    group: "Exporter la conversation",
    markdown: "Markdown",
    json: "JSON",
    error: "Erreur lors de l'export de la conversation. Veuillez réessayer.",
  },
  account: {
    open: "Mon compte",
    title: "Mon compte",
    dataTitle: "Vos données",
    dataText:
      "Téléchargez en un fichier JSON tout ce qu'Unisson conserve sur vous : votre compte, vos conversations avec tous leurs messages, vos paiements et l'historique de vos forfaits, vos parrainages.",
    dataButton: "Télécharger mes données",
    dataError: "Erreur lors de l'export de vos données. Veuillez réessayer.",
    deleteTitle: "Supprimer mon compte",
    deleteText:
      "La suppression est définitive : votre compte, vos conversations et vos sessions sont effacés, et votre abonnement en cours est résilié. Seules les pièces comptables que la loi nous oblige à garder sont conservées, anonymisées.",
    deleteButton: "Supprimer mon compte…",
    confirmTitle: "Supprimer définitivement votre compte ?",
    confirmText: "Cette action est irréversible. Saisissez votre mot de passe pour confirmer.",
    password: "Mot de passe",
    code: "Code de vérification (reçu par e-mail)",
    sendCode: "Recevoir un code par e-mail",
    codeSent: "Un code vient de vous être envoyé par e-mail.",
    confirm: "Supprimer définitivement",
    deleteError: "Erreur lors de la suppression du compte. Veuillez réessayer.",
    adminNote: "Un compte administrateur se supprime par un autre administrateur, depuis le panneau d'administration.",
    storageTitle: "Pièces jointes",
    storageText: (used: string, quota: string) =>
      `${used} Mo utilisés sur ${quota} Mo. Les fichiers restent avec leurs conversations : supprimez une conversation pour libérer sa place.`,
  },
} as const;
