import { formatEuros, OFFERS, PACK_REQUESTS, REFERRAL_BONUS } from "../../src/contracts/pricing.ts";

/**
 * The four legal pages of the footer, in French. Prices come from the one
 * price table, so the CGV can never disagree with the checkout. Kept apart
 * from fr.ts because they are long and load only with the legal modal.
 */
export type LegalDoc = { title: string; updated: string; sections: { heading: string; paragraphs: string[] }[] };

const p = (product: keyof typeof OFFERS) => formatEuros(OFFERS[product].price_cents);

export const legalDocs: Record<"mentions" | "cgu" | "cgv" | "privacy", LegalDoc> = {
  mentions: {
    title: "Mentions Légales",
    updated: "Dernière mise à jour : novembre 2025",
    sections: [
      {
        heading: "Éditeur du service",
        paragraphs: [
          "Le service Unisson (« plusieurs IA, une seule réponse ») est édité et exploité par l'organisation qui l'héberge à l'adresse que vous consultez (ci-après « l'Éditeur »).",
          "Pour toute question, l'Éditeur est joignable au moyen du formulaire « Nous contacter » accessible en bas de chaque page du service.",
        ],
      },
      {
        heading: "Hébergement",
        paragraphs: [
          "Le service est hébergé sur les serveurs choisis par l'Éditeur. Les données sont conservées dans une base de données unique, sauvegardée régulièrement.",
        ],
      },
      {
        heading: "Propriété intellectuelle",
        paragraphs: [
          "La marque Unisson, l'interface, les textes et les éléments graphiques du service sont protégés par le droit de la propriété intellectuelle. Toute reproduction sans autorisation est interdite.",
          "Les noms GPT-4, Claude, Gemini, Mistral et Sonar sont des marques de leurs propriétaires respectifs (OpenAI, Anthropic, Google, Mistral AI, Perplexity). Unisson n'est affilié à aucun de ces éditeurs.",
        ],
      },
      {
        heading: "Responsabilité",
        paragraphs: [
          "Les réponses affichées sont produites automatiquement par des modèles d'intelligence artificielle puis consolidées. Elles peuvent contenir des erreurs ou des imprécisions et ne remplacent pas l'avis d'un professionnel qualifié (médecin, avocat, expert-comptable, etc.).",
        ],
      },
    ],
  },
  cgu: {
    title: "Conditions Générales d'Utilisation",
    updated: "Dernière mise à jour : novembre 2025",
    sections: [
      {
        heading: "1. Objet",
        paragraphs: [
          "Les présentes conditions régissent l'utilisation du service Unisson, qui interroge plusieurs modèles d'intelligence artificielle et restitue une réponse consolidée. La création d'un compte vaut acceptation des présentes conditions.",
        ],
      },
      {
        heading: "2. Compte",
        paragraphs: [
          "Vous devez fournir une adresse email valide et choisir un mot de passe personnel. Vous êtes responsable de la confidentialité de vos identifiants. La vérification en deux étapes par email peut être exigée ; un appareil peut être mémorisé pendant 30 jours.",
          "Vous pouvez demander la suppression de votre compte à tout moment via le formulaire de contact.",
        ],
      },
      {
        heading: "3. Essai gratuit et requêtes",
        paragraphs: [
          "Chaque nouveau compte bénéficie d'un essai gratuit de 7 jours comprenant 5 requêtes. L'essai prend fin au terme des 7 jours ou lorsque les 5 requêtes sont utilisées, selon ce qui survient en premier.",
          "Une requête est décomptée uniquement lorsqu'une réponse consolidée vous est remise. Les questions de précision et les demandes refusées par la modération ne sont pas décomptées ; une requête dont l'analyse finale échoue vous est restituée.",
          "Lorsqu'une partie des modèles n'a pas répondu, la réponse l'indique en tête (« Réponse partielle »), avec les modèles manquants et la raison. Une réponse établie à partir de moins de 3 réponses de modèles vous est remise sans être décomptée ; à partir de 3 réponses, elle est décomptée comme toute réponse consolidée.",
        ],
      },
      {
        heading: "4. Usage acceptable",
        paragraphs: [
          "Vous vous engagez à ne pas utiliser le service pour produire des contenus illicites, haineux, violents, diffamatoires ou portant atteinte aux droits de tiers. Les demandes contraires à ces règles peuvent être refusées automatiquement.",
          "Toute tentative de contournement des limites, d'accès non autorisé ou d'usage automatisé massif peut entraîner la suspension du compte.",
        ],
      },
      {
        heading: "5. Nature des réponses",
        paragraphs: [
          "Les réponses sont générées par des modèles d'IA tiers et synthétisées automatiquement. Elles sont fournies à titre informatif, sans garantie d'exactitude ou d'exhaustivité. Vérifiez toute information importante auprès de sources fiables.",
        ],
      },
      {
        heading: "6. Disponibilité",
        paragraphs: [
          "Le service nécessite au moins 2 modèles d'IA disponibles. En deçà, il passe en maintenance et aucune requête n'est décomptée. L'Éditeur s'efforce d'assurer une disponibilité continue sans pouvoir la garantir.",
        ],
      },
      {
        heading: "7. Modification des conditions",
        paragraphs: ["Les présentes conditions peuvent évoluer ; la version en vigueur est celle affichée dans le service."],
      },
    ],
  },
  cgv: {
    title: "Conditions Générales de Vente et d'Abonnement",
    updated: "Dernière mise à jour : novembre 2025",
    sections: [
      {
        heading: "1. Offres et prix",
        paragraphs: [
          `Forfait Basic : ${p("subscription_basic")} TTC par mois, ou ${p("subscription_basic_annual")} TTC par an (2 mois offerts), 10 requêtes par mois.`,
          `Forfait Pro : ${p("subscription_pro")} TTC par mois, ou ${p("subscription_pro_annual")} TTC par an (2 mois offerts), 30 requêtes par mois, support prioritaire et code de parrainage personnel.`,
          `Pack de requêtes : ${p("token_pack_10")} TTC, paiement unique, ${PACK_REQUESTS} requêtes supplémentaires, réservé aux abonnés Basic et Pro.`,
          "Les prix sont indiqués en euros, toutes taxes comprises.",
        ],
      },
      {
        heading: "2. Paiement",
        paragraphs: ["Le paiement s'effectue par carte bancaire via notre prestataire Stripe. Unisson ne reçoit ni ne conserve vos numéros de carte."],
      },
      {
        heading: "3. Durée, renouvellement et requêtes",
        paragraphs: [
          "L'abonnement est conclu pour un mois ou un an selon l'option choisie et se renouvelle automatiquement à chaque échéance. Le quota de requêtes du forfait est rechargé chaque mois à partir de la date de souscription, y compris en facturation annuelle ; les requêtes du forfait non utilisées ne sont pas reportées.",
          `Les requêtes supplémentaires (packs, bonus de parrainage de +${REFERRAL_BONUS} requêtes, crédits accordés) n'expirent jamais et sont conservées lors des renouvellements. Les requêtes du forfait sont consommées en premier.`,
        ],
      },
      {
        heading: "4. Changement de forfait et résiliation",
        paragraphs: [
          "Le passage de Basic à Pro prend effet immédiatement, avec un crédit calculé au prorata de la période restante ; les 30 requêtes Pro s'ajoutent à celles qui vous restent.",
          "Le passage à un forfait inférieur, le changement de périodicité et la résiliation prennent effet à la prochaine date de renouvellement, sans remboursement partiel ; vous conservez l'accès jusqu'à cette date. Une demande en attente peut être annulée avant son échéance.",
          "Un compte résilié est conservé et peut souscrire de nouveau à tout moment.",
        ],
      },
      {
        heading: "5. Droit de rétractation",
        paragraphs: [
          "Le service étant fourni immédiatement après la souscription, vous acceptez expressément son exécution avant la fin du délai de rétractation de 14 jours et reconnaissez perdre ce droit pour les requêtes déjà utilisées, conformément à l'article L221-28 du Code de la consommation.",
        ],
      },
      {
        heading: "6. Parrainage",
        paragraphs: [
          `Les abonnés Pro disposent d'un code personnel. Lorsqu'un nouvel utilisateur saisit ce code et souscrit un forfait payant, le parrain et le filleul reçoivent chacun ${REFERRAL_BONUS} requêtes supplémentaires, une seule fois par filleul.`,
        ],
      },
      {
        heading: "7. Réclamations",
        paragraphs: [
          "Toute réclamation peut être adressée via le formulaire « Nous contacter ». En cas de litige, vous pouvez recourir gratuitement à un médiateur de la consommation.",
        ],
      },
    ],
  },
  privacy: {
    title: "Politique de Confidentialité",
    updated: "Dernière mise à jour : novembre 2025",
    sections: [
      {
        heading: "1. Données collectées",
        paragraphs: [
          "Compte : prénom, nom, adresse email, mot de passe (conservé uniquement sous forme chiffrée irréversible).",
          "Utilisation : vos questions, les réponses des modèles et l'historique de vos conversations ; données techniques (adresse IP, navigateur, journaux de connexion).",
          "Facturation : forfait souscrit, montants et dates des paiements. Les données de carte bancaire sont traitées exclusivement par Stripe.",
        ],
      },
      {
        heading: "2. Finalités et bases légales",
        paragraphs: [
          "Fournir le service et gérer votre compte (exécution du contrat) ; facturer et respecter nos obligations comptables (obligation légale) ; sécuriser le service et prévenir les abus (intérêt légitime).",
        ],
      },
      {
        heading: "3. Transmission aux fournisseurs d'IA",
        paragraphs: [
          "Pour produire une réponse, le texte de votre question est transmis aux fournisseurs des modèles interrogés (OpenAI, Anthropic, Google, Mistral AI, Perplexity), sans votre nom ni votre adresse email. N'y incluez pas de données sensibles.",
        ],
      },
      {
        heading: "4. Durées de conservation",
        paragraphs: [
          "Données de facturation : 10 ans, conformément aux obligations comptables.",
          "Données techniques : 12 mois.",
          "Journaux : anonymisés au bout de 3 mois.",
          "Compte et conversations : tant que le compte existe ; vous pouvez supprimer chaque conversation à tout moment depuis l'historique.",
        ],
      },
      {
        heading: "5. Vos droits",
        paragraphs: [
          "Vous disposez d'un droit d'accès, de rectification, d'effacement, de limitation, d'opposition et de portabilité de vos données. Les droits d'accès et de portabilité (« Télécharger mes données », un fichier JSON de tout ce que nous conservons sur vous) et d'effacement (« Supprimer mon compte », qui résilie aussi votre abonnement) s'exercent vous-même, connecté, sous « Mon compte » en bas de page ; les pièces comptables que la loi nous oblige à garder sont conservées sans votre nom. Pour les autres droits, écrivez-nous via le formulaire « Nous contacter ». Vous pouvez également saisir la CNIL (www.cnil.fr).",
        ],
      },
      {
        heading: "6. Stockage local",
        paragraphs: [
          "Le service conserve dans votre navigateur votre jeton de session et votre profil pour vous garder connecté, ainsi que vos préférences d'affichage. Aucun cookie publicitaire n'est utilisé. Un cookie technique mémorise, si vous le demandez, un appareil de confiance pendant 30 jours.",
        ],
      },
    ],
  },
};
