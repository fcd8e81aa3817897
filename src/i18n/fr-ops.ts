/**
 * The French texts an operator reads from the server and the services the CLI
 * shares with it: refusals to start or to open a database, backups, the admin
 * created at start, the start-up configuration line, the 404 page. Log event
 * names and metric help texts stay beside their code. docs/PRODUCT.md#cli.
 */
export const frOps = {
  lease: {
    held: (holder: string) => `Un autre serveur Unisson utilise déjà cette base (${holder}) : arrêtez-le avant d'en démarrer un second.`,
    holder: (pid: number, host: string, url: string | null, ago: number) =>
      `pid ${pid} sur ${host}${url ? `, ${url}` : ""}, dernier signe de vie il y a ${ago} s`,
  },
  schema: {
    /** The way back names the restore step of the database's kind: the file copied back (SQLite), or pg_restore. */
    newer: (path: string, version: number | string, known: number | string) =>
      `La base ${path} vient d'une version plus récente d'Unisson (schéma ${version}, cet exécutable connaît le schéma ${known}) : utilisez l'exécutable de cette version, ou restaurez la sauvegarde pre-migrate : serveur arrêté, copiez backups/pre-migrate-${known}.db (dans le dossier de données) à la place de ${path}, sans ses fichiers -wal et -shm.`,
    newerPostgres: (path: string, version: number | string, known: number | string, restoreUrl: string) =>
      `La base ${path} vient d'une version plus récente d'Unisson (schéma ${version}, cet exécutable connaît le schéma ${known}) : utilisez l'exécutable de cette version, ou restaurez la sauvegarde pre-migrate : serveurs arrêtés, \`pg_restore --clean --if-exists --no-owner --dbname='${restoreUrl}' backups/pre-migrate-${known}.dump\` (dossier de données du \`unisson migrate\` qui l'a prise ; mot de passe par PGPASSWORD).`,
    missing: (path: string) => `Base de données introuvable : ${path} (vérifiez DATA_DIR ou --data-dir ; elle n'est pas créée ici).`,
    empty: (path: string) =>
      `La base ${path} ne contient pas les tables d'Unisson (base vide, ou d'une autre application) : lancez \`unisson migrate\` (le serveur le fait aussi à son démarrage).`,
    foreign: (path: string, tables: string) =>
      `La base ${path} contient déjà des tables d'une autre application (${tables}) : Unisson a besoin d'une base à lui, vide (par exemple CREATE DATABASE unisson), rien n'a été modifié.`,
    behind: (path: string, version: number | string, expected: number | string) =>
      `La base ${path} n'est pas à jour (schéma ${version}, attendu ${expected}) : lancez \`unisson migrate\` (le serveur le fait aussi à son démarrage).`,
  },
  /** A database that cannot be opened (src/db/open-failure.ts): the cause, then what to do. */
  database: {
    pgUnreachable: (url: string, reason: string) => `Connexion à PostgreSQL impossible : ${reason} (${url}).`,
    pg: {
      refused: "connexion refusée (serveur arrêté, mauvais hôte ou mauvais port ?) : démarrez PostgreSQL ou corrigez l'hôte et le port de DATABASE_URL",
      unknownHost: (host: string) => `hôte inconnu « ${host} » : corrigez le nom d'hôte de DATABASE_URL`,
      timeout: "le serveur ne répond pas (pare-feu, hôte ou port ?) : vérifiez que PostgreSQL écoute à l'adresse de DATABASE_URL",
      tls: "le serveur n'accepte pas TLS alors que DATABASE_URL le demande (sslmode) : activez ssl dans PostgreSQL, ou retirez sslmode de l'URL sur un réseau de confiance",
      password: (user: string) => `mot de passe refusé pour l'utilisateur « ${user} » : corrigez DATABASE_PASSWORD ou le mot de passe de DATABASE_URL`,
      role: (user: string) =>
        `utilisateur « ${user} » refusé (inconnu, ou non autorisé par pg_hba.conf) : créez-le (CREATE ROLE ${user} LOGIN PASSWORD '…') ou corrigez DATABASE_URL`,
      noDatabase: "cette base n'existe pas (créez-la d'abord, vide)",
      permission: (user: string, detail: string) =>
        `droits insuffisants pour l'utilisateur « ${user} » (${detail}) : donnez-lui la base (ALTER DATABASE … OWNER TO ${user}) ou ses droits sur le schéma public`,
      tooMany: "le serveur refuse toute nouvelle connexion (max_connections atteint) : réduisez le nombre de serveurs ou relevez max_connections",
      starting: "le serveur PostgreSQL démarre ou s'arrête : réessayez dans quelques instants",
      badUrl: "URL invalide",
    },
    sqlite: {
      notADatabase: (file: string) =>
        `${file} n'est pas une base SQLite (fichier d'un autre type, ou chiffré) : vérifiez DATA_DIR et DATABASE_PATH, ou restaurez une sauvegarde (backups/).`,
      corrupt: (file: string) => `La base ${file} est endommagée : restaurez la dernière sauvegarde (dossier backups/ du dossier de données).`,
      readOnly: (file: string, folder: string) =>
        `La base ${file} est en lecture seule : le processus (uid ${process.getuid?.() ?? -1}) doit pouvoir écrire le fichier et le dossier ${folder} (SQLite y crée ses fichiers -wal et -shm) ; donnez-lui le dossier (\`chown -R\`) ou montez-le en écriture.`,
      cannotOpen: (file: string, folder: string) =>
        `Ouverture impossible de la base ${file} : le dossier ${folder} n'existe pas ou n'est pas lisible par le processus (uid ${process.getuid?.() ?? -1}) ; vérifiez DATA_DIR, DATABASE_PATH et les droits du dossier.`,
      notAFolder: (file: string, folder: string) =>
        `Ouverture impossible de la base ${file} : ${folder} n'est pas un dossier (un fichier porte ce nom) ; vérifiez DATA_DIR et DATABASE_PATH.`,
    },
  },
  /** The server refused to start on its address, or its data folder (the variable named, exit 1). */
  start: {
    dataDirIsFile: (path: string) =>
      `Configuration invalide : DATA_DIR="${path}" est un fichier, pas un dossier : indiquez un dossier (créé s'il n'existe pas) avec DATA_DIR ou --data-dir.`,
    portTaken: (port: number) =>
      `Le port ${port} est déjà utilisé (PORT=${port}) : un autre programme, ou un autre serveur Unisson, l'occupe ; arrêtez-le (\`ss -ltnp 'sport = :${port}'\` le nomme) ou choisissez un autre PORT.`,
    portPrivileged: (port: number, uid: number) =>
      `Le port ${port} (PORT=${port}) est réservé à root : le processus tourne sous l'uid ${uid} ; choisissez un PORT à partir de 1024 (derrière votre proxy), ou donnez-lui ce droit (\`setcap cap_net_bind_service=+ep\` sur l'exécutable, AmbientCapabilities=CAP_NET_BIND_SERVICE sous systemd).`,
    badHost: (host: string) =>
      `Configuration invalide : HOST="${host}" n'est pas une adresse de cette machine : indiquez 0.0.0.0 (toutes ses adresses), 127.0.0.1 (elle seule), :: (IPv6) ou l'adresse d'une de ses interfaces.`,
  },
  dataDir: {
    notWritable: (path: string, folder: string, uid: number, gid: number) =>
      `Écriture impossible dans ${path} : le processus tourne sous l'uid ${uid} (gid ${gid}), qui n'a pas le droit d'écrire dans ${folder} ; donnez-lui le dossier (\`chown -R ${uid}:${gid} ${folder}\`) ou choisissez un autre DATA_DIR (--data-dir).`,
  },
  backup: {
    exists: (file: string) => `Le fichier existe déjà, il n'est pas remplacé : ${file}`,
    cannotCreate: (file: string, why: string) => `Impossible de créer ${file} : ${why}`,
    failed: (why: string) => `La sauvegarde a échoué : ${why}`,
    corrupt: (problems: string) => `La copie est corrompue, elle a été supprimée : ${problems}`,
    pgDumpAbsent: (command: string) =>
      `pg_dump est introuvable sur le PATH : aucune sauvegarde de la base PostgreSQL n'a été prise avant la migration. Prenez-en une vous-même (${command}), puis lancez \`unisson migrate --no-backup\` ; ou installez pg_dump (paquet postgresql-client, de la version du serveur ou plus récent).`,
    pgDumpFailed: (why: string) => `La sauvegarde pg_dump avant migration a échoué, rien n'a été migré : ${why}`,
    postgres:
      "La base est PostgreSQL (DATABASE_URL) : Unisson ne la sauvegarde pas lui-même. Utilisez pg_dump (ou les sauvegardes de votre hébergeur), voir docs/SCALING.md.",
  },
  bootstrap: {
    notPromoted: (email: string) =>
      `ADMIN_EMAIL=${email} : un compte non administrateur existe déjà avec cette adresse, il n'est pas promu. ` +
      `Vérifiez qu'il est bien le vôtre, puis lancez \`unisson users set-admin ${email} on\`.`,
    created: (email: string, password: string) => `Administrateur créé : ${email} — mot de passe (affiché une seule fois) : ${password}`,
  },
  /** The `configuration` line logged at start. */
  setup: {
    none: "aucun",
    payments: (on: boolean) => (on ? "Stripe configuré" : "désactivés (STRIPE_SECRET_KEY absent)"),
    webhook: (on: boolean) => (on ? "configuré" : "absent (STRIPE_WEBHOOK_SECRET)"),
    mail: (on: boolean) => (on ? "SMTP" : "boîte d'envoi (SMTP_URL absent)"),
    moderation: (on: boolean) => (on ? "API OpenAI" : "règles locales (OPENAI_API_KEY absent)"),
    metrics: (on: boolean) => (on ? "GET /metrics" : "désactivées (METRICS_TOKEN absent)"),
    backups: (minutes: number | null, keep: number) =>
      minutes ? `toutes les ${minutes} min, ${keep} gardées` : "automatiques désactivées (BACKUP_INTERVAL absent)",
  },
  notFoundPage: {
    title: "Page introuvable · Unisson",
    heading: "Page introuvable",
    back: "Retour à l'accueil Unisson",
  },
  /** A shared link that was revoked, or whose conversation or account was deleted (src/sharing). */
  sharedNotFound: {
    title: "Lien de partage introuvable · Unisson",
    heading: "Lien de partage introuvable",
    text: "Ce lien a été révoqué par la personne qui l'avait partagé, ou la conversation a été supprimée.",
    back: "Découvrir Unisson",
  },
};
