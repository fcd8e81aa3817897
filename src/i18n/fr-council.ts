/** The French texts of the council (src/council/): refusals an operator reads at start or when a key cannot be opened. */
export const frCouncil = {
  secretKeyRequired:
    "SECRET_KEY manquante : avec PostgreSQL (DATABASE_URL), définissez SECRET_KEY (au moins 32 caractères, la même sur chaque serveur, par exemple `openssl rand -base64 32`) pour chiffrer les clés d'API du conseil.",
  keyFileInvalid: (file: string) => `Le fichier de clé ${file} est illisible (32 octets en base64 attendus) : restaurez-le ou définissez SECRET_KEY.`,
  sealedUnreadable:
    "Clé d'API du conseil illisible : elle a été chiffrée avec une autre SECRET_KEY (ou un autre fichier secret.key) ; saisissez-la de nouveau.",
  keyUnreadable:
    "Indisponible : sa clé d'API enregistrée est illisible (chiffrée avec une autre SECRET_KEY ou un autre fichier secret.key). Il n'est appelé avec aucune autre clé : saisissez sa clé de nouveau.",
  envKeyElsewhere: (provider: string) =>
    `Indisponible : ${provider.toUpperCase()}_API_KEY n'est envoyée qu'à l'adresse de son fournisseur (${provider.toUpperCase()}_BASE_URL ou l'adresse par défaut), pas à celle de ce modèle. Saisissez une clé pour cette adresse.`,
};
