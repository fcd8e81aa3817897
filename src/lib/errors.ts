import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Domain errors. Services throw AppError(code); one onError (app.ts) turns it
 * into { detail } with the status of this table. Every French text the API
 * can answer with lives here, grouped by domain. Add codes to your domain's
 * group; never answer an HTTP error from a service.
 */
const table = {
  // General
  VALIDATION: [400, "Données invalides."],
  INVALID_JSON: [400, "Le corps de la requête doit être un JSON valide."],
  UNAUTHENTICATED: [401, "Session expirée. Veuillez vous reconnecter."],
  FORBIDDEN: [403, "Accès refusé."],
  CROSS_ORIGIN: [403, "Requête refusée : elle ne provient pas de Unisson."],
  NOT_FOUND: [404, "Ressource introuvable."],
  API_NOT_FOUND: [404, "Point d'accès introuvable."],
  METHOD_NOT_ALLOWED: [405, "Méthode non autorisée."],
  PAYLOAD_TOO_LARGE: [413, "Requête trop volumineuse."],
  UNSUPPORTED_MEDIA_TYPE: [415, "Le corps de la requête doit être envoyé en JSON."],
  RATE_LIMITED: [429, "Trop de tentatives. Veuillez réessayer dans quelques instants."],
  SPEND_LIMITED: [429, "Vous avez envoyé beaucoup de messages en peu de temps. Veuillez patienter avant d'en envoyer d'autres."],
  TRIAL_DAILY_LIMITED: [429, "Vous avez atteint la limite quotidienne de messages de l'essai gratuit. Revenez demain ou choisissez un forfait."],
  STREAMS_PER_USER: [429, "Trop de réponses suivies en direct en même temps : fermez d'autres onglets Unisson puis réessayez."],
  STREAMS_FULL: [429, "Le serveur suit trop de réponses en direct en ce moment. Veuillez réessayer dans quelques instants."],
  EXPORT_IN_PROGRESS: [429, "Un export de vos données est déjà en cours : attendez qu'il se termine avant d'en lancer un autre."],
  EXPORT_LIMITED: [429, "Vous avez lancé beaucoup d'exports en peu de temps (5 par heure au plus). Veuillez réessayer plus tard."],
  INTERNAL: [500, "Erreur interne du serveur. Veuillez réessayer dans quelques instants."],
  SERVICE_UNAVAILABLE: [503, "Service momentanément indisponible. Veuillez réessayer dans quelques instants."],

  // Operations (system)
  DATABASE_BUSY: [503, "La base de données est momentanément occupée par une autre opération. Veuillez réessayer dans quelques instants."],
  NOT_READY: [503, "Service pas encore prêt."],
  METRICS_TOKEN_INVALID: [401, "Jeton des métriques absent ou incorrect."],

  // Accounts (auth)
  EMAIL_TAKEN: [400, "Un compte existe déjà avec cette adresse email."],
  INVALID_CREDENTIALS: [401, "Email ou mot de passe incorrect."],
  PASSWORD_TOO_COMMON: [400, "Ce mot de passe fait partie des plus courants : choisissez-en un plus difficile à deviner."],
  TWO_FACTOR_CODE_INVALID: [400, "Code incorrect ou expiré"],
  TWO_FACTOR_TOO_SOON: [429, "Veuillez patienter 60 secondes avant de demander un nouveau code."],
  RESET_TOKEN_INVALID: [400, "Ce lien de réinitialisation est invalide ou a expiré."],
  API_KEY_LIMIT: [409, "Vous avez déjà 10 clés d'API : révoquez-en une avant d'en créer une autre."],
  API_KEY_NOT_FOUND: [404, "Clé d'API introuvable."],
  ACCOUNT_WRONG_PASSWORD: [403, "Mot de passe incorrect."],
  ACCOUNT_ADMIN_DELETE: [403, "Un compte administrateur ne se supprime pas depuis « Mon compte » : demandez-le à un autre administrateur."],
  MAIL_FAILED: [503, "L'envoi de l'email a échoué. Veuillez réessayer dans quelques instants."],

  // Administration
  ADMIN_REQUIRED: [403, "Accès refusé. Privilèges administrateur requis."],
  ADMIN_SELF_DELETE: [400, "Vous ne pouvez pas supprimer votre propre compte."],
  USER_NOT_FOUND: [404, "Utilisateur introuvable."],
  BACKUP_TARGET_EXISTS: [409, "Le fichier de sauvegarde existe déjà : choisissez un autre nom."],
  BACKUP_FAILED: [500, "La sauvegarde a échoué."],
  BACKUP_UNAVAILABLE: [409, "Unisson ne sauvegarde pas une base PostgreSQL : utilisez pg_dump."],
  // Council (« Modèles »): the precise French text comes from src/admin/council.schemas.ts.
  COUNCIL_MEMBER_NOT_FOUND: [404, "Modèle introuvable."],
  COUNCIL_NAME_TAKEN: [409, "Un modèle porte déjà ce nom."],

  // Contact
  CONTACT_SEND_FAILED: [503, "Erreur lors de l'envoi. Veuillez réessayer ou nous contacter directement."],

  // Chat engine
  EMPTY_MESSAGE: [400, "Le message ne peut pas être vide."],
  TRIAL_EXPIRED: [402, "Votre essai gratuit de 7 jours est terminé. Choisissez un forfait payant pour continuer."],
  QUOTA_TRIAL: [402, "Vous avez utilisé vos 5 requêtes gratuites. Choisissez un forfait payant pour continuer."],
  QUOTA_BASIC: [402, "Vous avez utilisé toutes vos requêtes Basic ce mois-ci. Passez au forfait Pro ou achetez un pack de requêtes."],
  QUOTA_PRO: [402, "Vous avez utilisé toutes vos requêtes Pro ce mois-ci. Achetez un pack de requêtes pour continuer."],
  QUOTA_OTHER: [402, "Vous n'avez plus de requêtes disponibles. Gérez votre abonnement pour continuer."],
  MAINTENANCE: [503, "Le système est en maintenance : il nécessite au moins 2 IA disponibles. Veuillez réessayer plus tard."],
  CONVERSATION_NOT_FOUND: [404, "Conversation introuvable."],
  CONTENT_REFUSED: [
    400,
    "Votre message ne peut pas être traité car il enfreint nos règles d'utilisation. Unisson fournit des informations utiles et constructives : merci de reformuler votre question.",
  ],
  WEB_SEARCH_UNAVAILABLE: [400, "La recherche web n'est pas proposée sur ce serveur : posez la question sans elle."],
  NOTHING_TO_PROCESS: [409, "Aucune question n'attend d'analyse finale dans cette conversation."],
  NOT_ENOUGH_ANSWERS: [
    503,
    "Trop peu d'IA ont répondu pour établir une synthèse fiable (au moins 2 réponses sont nécessaires). Votre requête n'a pas été décomptée : veuillez réessayer dans quelques instants.",
  ],
  // Too few answers because the members declined (src/chat/consolidate.ts): said as such, with what a retry would get; the detail names them.
  COUNCIL_DECLINED: [
    503,
    "Toutes les IA consultées ont refusé de répondre à cette question : il n'y a aucune réponse à synthétiser. Votre requête n'a pas été décomptée. Renvoyée telle quelle, elle recevrait sans doute le même refus : vous pouvez la reformuler avec « Modifier ».",
  ],
  RUN_IN_PROGRESS: [409, "Une analyse est en cours dans cette conversation : attendez sa réponse avant d'envoyer un nouveau message."],
  DELETE_DURING_RUN: [409, "Une analyse est en cours dans cette conversation : vous pourrez la supprimer dès que la réponse sera arrivée."],
  MODERATION_UNAVAILABLE: [
    503,
    "La vérification de votre message est momentanément indisponible. Rien n'a été décompté : veuillez réessayer dans quelques instants.",
  ],
  SYNTHESIS_FAILED: [503, "La synthèse des réponses a échoué. Votre requête n'a pas été décomptée : veuillez réessayer dans quelques instants."],
  // « Arrêter », edit and ask again, « Nouvelle réponse » (src/chat/run-stop.ts, src/chat/versions.ts)
  RUN_STOPPED: [409, "Réponse arrêtée par l'utilisateur. Votre requête n'a pas été décomptée."],
  NO_RUN_TO_STOP: [409, "Aucune analyse n'est en cours dans cette conversation."],
  NO_ASK_TO_STOP: [409, "Cette question n'est plus en cours d'envoi : arrêtez son analyse depuis la conversation."],
  // A run POST /chat started with the clarification pre-pass, dropped because a precision is asked (src/chat/run-drop.ts)
  RUN_DROPPED_FOR_CLARIFICATION: [409, "Une précision est demandée avant l'analyse : répondez à la question posée. Votre requête n'a pas été décomptée."],
  NOTHING_TO_REDO: [409, "Cette conversation n'a pas encore de question à modifier ou à relancer."],
  VERSION_NOT_FOUND: [404, "Version introuvable."],

  // Attachments (src/attachments): most messages name the file, given as the detail
  ATTACHMENT_TOO_LARGE: [413, "Ce fichier est trop volumineux."],
  ATTACHMENT_REFUSED: [415, "Ce fichier n'est pas accepté."],
  ATTACHMENT_MISSING: [400, "Aucun fichier reçu : envoyez-le dans le champ « file » d'un formulaire multipart/form-data."],
  ATTACHMENT_NOT_FOUND: [404, "Pièce jointe introuvable."],
  ATTACHMENT_FORM_INVALID: [400, "Formulaire d'envoi illisible (limite manquante ou corps tronqué) : envoyez le fichier à nouveau."],
  ATTACHMENTS_RATE_LIMITED: [429, "Trop de tentatives d'envoi de fichiers : 60 au plus en 10 minutes. Veuillez réessayer dans quelques minutes."],
  ATTACHMENT_QUOTA: [413, "Espace des pièces jointes plein : supprimez des conversations qui ont des fichiers, ou choisissez un forfait supérieur."],
  ATTACHMENT_UNNAMED: [400, "Le fichier reçu n'a pas de nom : choisissez un fichier qui en a un."],
  ATTACHMENTS_TOO_MANY: [400, "Trop de pièces jointes pour un seul message."],

  // Shared links (src/sharing)
  SHARE_NOT_FOUND: [404, "Lien de partage introuvable."],
  SHARE_LIMIT: [409, "Vous avez déjà 100 liens partagés : révoquez-en un dans « Mon compte » avant d'en créer un autre."],
  NOTHING_TO_SHARE: [409, "Cette conversation n'a encore aucune réponse à partager."],

  // OpenAI-compatible API (/v1)
  API_KEY_INVALID: [401, "Clé d'API invalide ou révoquée. Créez une clé dans « Mon abonnement » sur Unisson."],
  API_MODEL_UNKNOWN: [400, "Modèle inconnu : utilisez le modèle « unisson »."],
  API_NO_QUESTION: [400, "Le dernier message doit être un message de l'utilisateur (role « user ») contenant du texte."],
  API_RATE_LIMITED: [429, "Trop de requêtes avec cette clé d'API. Veuillez réessayer dans quelques instants."],
  API_ENDPOINT_UNKNOWN: [
    404,
    "Point d'accès introuvable. Unisson sert POST /v1/chat/completions, POST /v1/responses, GET /v1/models et GET /v1/models/unisson.",
  ],
  API_IDEMPOTENCY_REUSED: [400, "Cette Idempotency-Key a déjà servi pour une autre requête : envoyez-en une nouvelle pour une nouvelle question."],
  API_ANSWER_IMPOSSIBLE: [
    400,
    "Le conseil n'a pas pu produire de réponse conforme à cette requête (schéma JSON impossible à suivre, ou refus des modèles). Elle ne vous a pas été décomptée ; la même requête reçoit cette réponse pendant 10 minutes : modifiez-la avant de la renvoyer.",
  ],
  API_FAILING: [
    429,
    "Vos dernières requêtes à l'API ont échoué coup sur coup : les suivantes sont suspendues un moment. Vérifiez la requête (schéma, messages) avant de réessayer.",
  ],
  API_STATE_UNSUPPORTED: [
    400,
    "Unisson ne reprend pas une réponse précédente : « previous_response_id » et « conversation » ne sont pas pris en charge. Renvoyez toute la conversation dans « input ».",
  ],
  API_SCHEMA_INVALID: [
    400,
    "Le schéma JSON de « response_format » est invalide : corrigez-le (JSON Schema 2020-12, ou le brouillon que nomme son « $schema »).",
  ],
  API_FORMAT_UNSUPPORTED: [400, "« response_format » doit être de type « text », « json_object » ou « json_schema »."],
  API_N_UNSUPPORTED: [400, "Unisson ne donne qu'une réponse consolidée par requête : « n » doit valoir 1."],
  API_TOOL_REQUIRED: [
    400,
    "Unisson n'appelle pas d'outils : retirez « tool_choice » (ou mettez-le à « auto » ou « none ») ; la réponse est toujours un texte.",
  ],

  // Billing
  PAYMENTS_DISABLED: [402, "Problème de configuration de paiement. Contactez le support."],
  RETURN_ORIGIN_INVALID: [400, "L'adresse de retour doit être celle de Unisson."],
  SUBSCRIPTION_EXISTS: [409, "Vous avez déjà un abonnement actif : utilisez « Changer de forfait » pour passer à une autre formule."],
  PACK_SUBSCRIBERS_ONLY: [403, "Le pack de requêtes est réservé aux abonnés Basic et Pro."],
  PROMO_INVALID: [400, "Code promo invalide."],
  PROMO_CODE_TAKEN: [409, "Ce code promo existe déjà."],
  CHECKOUT_NOT_FOUND: [404, "Session de paiement introuvable."],
  WEBHOOK_SIGNATURE_INVALID: [400, "Signature du webhook Stripe invalide."],
  NO_ACTIVE_SUBSCRIPTION: [400, "Vous n'avez pas d'abonnement actif à modifier. Choisissez d'abord un forfait."],
  CHANGE_PENDING: [409, "Un changement de forfait est déjà programmé. Annulez-le avant d'en demander un autre."],
  CHANGE_NOT_OFFERED: [400, "Ce changement de forfait n'est pas proposé pour votre abonnement."],
  NO_PENDING_CHANGE: [404, "Aucun changement de forfait en attente."],
  PAYMENT_DECLINED: [402, "Le paiement a été refusé. Vérifiez votre moyen de paiement et réessayez."],
  PLAN_MANAGED_BY_STRIPE: [
    409,
    "Ce compte a un abonnement Stripe en cours : son forfait ne change que par Stripe (« Changer de forfait » côté utilisateur). Pour l'arrêter, choisissez le forfait expiré : l'abonnement sera résilié immédiatement chez Stripe.",
  ],
  CHECKOUT_REQUIRED: [400, "Votre forfait n'est pas lié à un abonnement payant : choisissez une offre dans « Tarifs » pour souscrire par paiement sécurisé."],
  UPGRADE_PAYMENT_FAILED: [402, "Le paiement de la mise à niveau a été refusé : votre forfait reste inchangé. Vérifiez votre moyen de paiement et réessayez."],
  SUBSCRIPTION_CANCEL_FAILED: [
    502,
    "Impossible de résilier l'abonnement Stripe de ce compte : la suppression est refusée et rien n'a été modifié. Réessayez dans quelques instants.",
  ],
  STRIPE_UNAVAILABLE: [502, "Le service de paiement est momentanément indisponible. Veuillez réessayer dans quelques instants."],
} as const satisfies Record<string, readonly [ContentfulStatusCode, string]>;

export type ErrorCode = keyof typeof table;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ContentfulStatusCode;
  readonly headers: Record<string, string>;
  /** Fields the answer carries beside `detail` (a failed run's individual answers). */
  readonly extra: Record<string, unknown> | undefined;

  /** `detail` replaces the table's text when the case needs a more precise French message. */
  constructor(code: ErrorCode, detail?: string, headers: Record<string, string> = {}, extra?: Record<string, unknown>) {
    const [status, message] = table[code];
    super(detail ?? message);
    this.code = code;
    this.status = status;
    this.headers = headers;
    this.extra = extra;
  }
}

export function errorMessage(code: ErrorCode): string {
  return table[code][1];
}

/**
 * An operator action refused with one clear French line (the CLI prints it
 * and exits 1): a second server, a database of another version, a missing file.
 */
export class RefusedError extends Error {}
