/**
 * The French sentences the operator CLI prints (`unisson …`): what a command
 * did, why it refused, what it asks. Table column headers and command
 * descriptions stay beside the command that lays them out. docs/PRODUCT.md#cli.
 */
export const frCli = {
  notAnInteger: (label: string, max: number) => `${label} doit être un entier entre 1 et ${max}.`,
  unknownCommand: (word: string, parent: string) =>
    `commande inconnue : ${word} ; \`unisson ${parent ? `${parent} ` : ""}--help\` donne la liste des commandes.`,
  /** Usage errors (cli/usage-error.ts): one line, then the command's help hint. */
  usageError: {
    unknownOption: (flag: string) => `Option inconnue : ${flag}`,
    missingArgument: (name: string) => `Argument manquant : <${name}>`,
    optionMissingValue: (flags: string) => `Valeur manquante pour l'option ${flags}`,
    missingOption: (flags: string) => `Option obligatoire absente : ${flags}`,
    excessArguments: "Trop d'arguments",
    conflicting: "Options incompatibles entre elles",
    help: (command: string) => `\`unisson ${command ? `${command} ` : ""}--help\` donne l'usage de la commande.`,
  },
  serverDown: (url: string) => `Le serveur ne répond pas sur ${url}`,
  health: {
    noServer: (folder: string) =>
      `Aucun serveur Unisson n'est démarré avec le dossier de données ${folder} (pas de server.json) : vérifiez DATA_DIR ou --data-dir.`,
    otherDatabase: (folder: string, theirs: string, ours: string) =>
      `Le serveur du dossier ${folder} utilise la base ${theirs}, pas ${ours} : vérifiez DATABASE_URL, DATABASE_PATH ou DATA_DIR.`,
    stopped: (folder: string, pid: number) => `Le serveur du dossier ${folder} (pid ${pid}) est arrêté.`,
  },
  users: {
    adminOn: "Droits d'administrateur donnés. Ses sessions et ses clés d'API ont été révoquées.",
    adminOff: "Droits d'administrateur retirés. Ses sessions et ses clés d'API ont été révoquées.",
    twoFactorOn: "Double authentification activée.",
    twoFactorOff: "Double authentification désactivée.",
    emptyPage: (page: number, total: number) => `Page ${page} vide (${total} utilisateur(s) en tout).`,
    none: "Aucun utilisateur.",
    page: (page: number, pages: number, total: number) => `Page ${page}/${pages} — ${total} utilisateur(s)`,
    created: (email: string, id: number, plan: string) => `Compte créé : ${email} (n° ${id}, forfait ${plan})`,
    generatedPassword: (password: string) => `Mot de passe (affiché une seule fois) : ${password}`,
    nothingToUpdate: "Rien à modifier : indiquez --first-name, --last-name ou --email.",
    updated: "Compte modifié.",
    planSet: (plan: string) => `Forfait ${plan} attribué.`,
    granted: (n: number) => `${n} requête(s) offerte(s).`,
    resetLink: (email: string, until: string, url: string) => `Lien de réinitialisation pour ${email} (valable jusqu'au ${until}, une seule fois) :\n${url}`,
    confirmDelete: (email: string) => `Supprimer définitivement le compte ${email} et ses conversations ?`,
    yesNo: "(oui/non)",
    deleteNotConfirmed: (email: string) => `Suppression non confirmée : ajoutez --yes pour supprimer ${email}.`,
    deleted: (email: string, id: number) => `Compte supprimé : ${email} (n° ${id}).`,
    keyRevoked: (id: number) => `Clé n° ${id} révoquée.`,
    noKeys: (email: string) => `Aucune clé d'API pour ${email}.`,
    never: "jamais",
    keyCount: (n: number, email: string) => `${n} clé(s) d'API pour ${email}`,
  },
  sheet: {
    cycle: (annual: boolean) => (annual ? "annuel" : "mensuel"),
    remaining: (total: number, plan: number, extra: number) => `${total} (forfait ${plan}, supplémentaires ${extra})`,
    yes: "oui",
    no: "non",
    on: "activée",
    off: "désactivée",
    none: "aucun",
    billingHistory: "Historique de facturation :",
  },
  billing: {
    compared: (subs: number, invoices: number, dryRun: boolean) =>
      `${subs} abonnement(s) et ${invoices} facture(s) payée(s) comparés avec Stripe${dryRun ? " (simulation : rien n'a été corrigé)" : ""}.`,
    noDifference: "Aucune différence.",
    differences: (n: number, fixed: number) => `${n} différence(s), ${fixed} corrigée(s).`,
  },
  stats: {
    aiCosts: (days: number, total: string, answers: number, average: string) =>
      `Coût des IA, ${days} derniers jours : ${total} ; ${answers} réponses, ${average} par réponse en moyenne`,
  },
  usage: {
    title: (days: number) => `Usage des ${days} derniers jours`,
    spend: (total: string, probes: string, average: string) => `Dépense des IA : ${total} (dont sondes ${probes}), ${average} par réponse en moyenne`,
    noAnswers: "Aucune réponse.",
    noCalls: "Aucun appel aux modèles.",
    noUsers: "Aucun utilisateur actif.",
    attachments: (files: number, mb: string) => `Pièces jointes stockées : ${files} fichier${files > 1 ? "s" : ""}, ${mb} Mo`,
    web: (searches: number, fetches: number) =>
      `Recherche web : ${searches} recherche${searches > 1 ? "s" : ""}, ${fetches} page${fetches > 1 ? "s" : ""} lue${fetches > 1 ? "s" : ""}`,
  },
  audit: { empty: "Aucune action enregistrée." },
  council: {
    added: (name: string) => `Modèle ajouté au conseil : ${name}`,
    updated: (name: string) => `Modèle modifié : ${name}`,
    enabled: (name: string) => `Modèle activé : ${name}`,
    disabled: (name: string) => `Modèle désactivé : ${name}`,
    synthesisers: (names: string[]) => `Synthétiseurs, dans l'ordre : ${names.join(", ")}`,
    testOk: (name: string, ms: number, words: string) => `${name} répond en ${ms} ms : « ${words} »`,
    testFailed: (name: string, error: string) => `${name} ne répond pas : ${error}`,
    provider: (kinds: readonly string[]) => `Type de fournisseur inconnu : choisissez parmi ${kinds.join(", ")}.`,
    emptyKey: "Aucune clé d'API lue sur l'entrée standard.",
    none: "aucune",
    unreadable: "illisible",
    keyCleared:
      "L'adresse a changé : la clé d'API enregistrée est effacée (elle n'est jamais envoyée à une autre adresse). Donnez celle de la nouvelle adresse avec --api-key.",
    reason: (name: string, reason: string) => `${name} : ${reason}`,
    settings: {
      saved: "Réglages du conseil enregistrés.",
      peerReview: (on: boolean) => `Délibération : ${on ? "activée" : "désactivée"}`,
      clarifier: (name: string | null) => `Clarification : ${name ?? "automatique (le modèle disponible le moins cher)"}`,
      moderationModel: (id: string | null, fallback: string) => `Modération : ${id ?? `${fallback} (par défaut)`}`,
    },
  },
  promo: {
    created: (code: string, percent: number) => `Code promo créé : ${code} (-${percent} %)`,
    empty: "Aucun code promo.",
  },
  mail: {
    empty: "Aucun email.",
    status: { outbox: "boîte d'envoi", sent: "envoyé", failed: "échec" },
    body: (id: number, to: string, subject: string, text: string, error: string | null) =>
      `--- n° ${id} à ${to} : ${subject}\n${text}${error ? `\n(erreur : ${error})` : ""}`,
  },
  backup: {
    written: (file: string, kib: string) => `Sauvegarde écrite et vérifiée (integrity_check : ok) : ${file} (${kib} Kio)`,
  },
  migrate: {
    serverRunning: (pid: number, host: string) => `Un serveur Unisson utilise cette base (pid ${pid} sur ${host}) : arrêtez-le avant de migrer.`,
    applied: (n: number, path: string, backup: string | null) =>
      `${n} migration(s) appliquée(s) à ${path}${backup ? ` (sauvegarde préalable : ${backup})` : ""}`,
    upToDate: (path: string) => `Base à jour : ${path}`,
  },
  db: {
    badTarget: "Destination non reconnue : --to attend postgres://utilisateur:motdepasse@hôte:port/base ou sqlite:/chemin/fichier.db.",
    noSqliteSource:
      "Pour copier vers SQLite, DATABASE_URL doit désigner la base PostgreSQL à copier (postgres://…). Sans DATABASE_URL, la base est déjà SQLite.",
    samePostgres:
      "DATABASE_URL désigne déjà une base PostgreSQL : copiez vers SQLite (--to sqlite:/chemin/fichier.db), ou retirez DATABASE_URL pour copier la base SQLite.",
    targetNotEmpty: (target: string, table: string, rows: number) =>
      `La base de destination n'est pas vide (${target} : ${rows} ligne(s) dans ${table}) : la copie ne remplace rien. Indiquez une base vide.`,
    pgSchemaNotCurrent: (url: string, applied: number, known: number) =>
      `La base PostgreSQL ${url} n'est pas au schéma de cette version (${applied} migration(s) appliquée(s) sur ${known}) : démarrez-la avec cette version avant de la copier.`,
    countMismatch: (table: string, expected: number, copied: number) =>
      `Copie annulée : ${table} compte ${copied} ligne(s) au lieu de ${expected} ; la destination est restée vide.`,
    copied: (rows: number, tables: number, from: string, to: string) => `Copie terminée : ${rows} ligne(s) de ${tables} tables, de ${from} vers ${to}.`,
    keys: {
      targetTooShort: "TARGET_SECRET_KEY doit compter au moins 32 caractères (par exemple `openssl rand -base64 32`) : c'est la SECRET_KEY de la destination.",
      noSourceKey: (n: number) =>
        `Copie refusée, rien n'est écrit : ${n} clé(s) d'API du conseil sont chiffrées, mais ni SECRET_KEY ni le fichier secret.key du dossier de données ne sont là pour les ouvrir. Donnez la clé de la source (SECRET_KEY, ou --data-dir vers le dossier qui contient secret.key).`,
      unreadable: (name: string) =>
        `Copie refusée, rien n'est écrit : la clé d'API du modèle « ${name} » ne s'ouvre pas avec la clé de la source (SECRET_KEY, sinon le fichier secret.key du dossier de données). Donnez la bonne clé, ou saisissez de nouveau celle du modèle (unisson council set "${name}" --api-key -) avant de copier.`,
      noTargetKey: (n: number) =>
        `Copie refusée, rien n'est écrit : ${n} clé(s) d'API du conseil sont chiffrées avec le fichier secret.key, que la destination n'aura pas. Définissez TARGET_SECRET_KEY (au moins 32 caractères) : la SECRET_KEY des serveurs de la destination ; la copie les y chiffre de nouveau avec elle.`,
      resealed: (n: number) => `Clés d'API du conseil chiffrées de nouveau pour la destination (TARGET_SECRET_KEY) : ${n}.`,
    },
  },
};
