/**
 * Every French string the SPA shows, copied verbatim from the spec where it
 * gives one. Components read from here; none writes user-visible text inline.
 */
export const fr = {
  brand: {
    name: "Unisson",
    tagline: "Plusieurs IA, une seule réponse",
    version: "2.4",
  },
  login: {
    title: "Connexion",
    subtitle: "Heureux de vous revoir sur Unisson",
    email: "Email",
    emailPlaceholder: "vous@exemple.fr",
    password: "Mot de passe",
    passwordPlaceholder: "Votre mot de passe",
    showPassword: "Afficher le mot de passe",
    hidePassword: "Masquer le mot de passe",
    submit: "Se connecter",
    submitting: "Connexion…",
    forgot: "Mot de passe oublié ?",
    noAccount: "Pas encore de compte ?",
    register: "Créer un compte",
    error: "Erreur de connexion",
  },
  marketing: {
    whatTitle: "Une seule réponse, fiable, tirée de plusieurs IA",
    whatText:
      "Posez votre question une fois : Unisson interroge en parallèle GPT-4, Claude 3.5, Gemini 2.0 et Mistral, puis vous rend une réponse consolidée qui montre où les modèles s'accordent et où ils divergent.",
    aiCount: "4 IA interrogées",
    professionals: "1000+ professionnels",
    satisfaction: "4.8/5 de satisfaction",
    trialTitle: "Essai gratuit de 7 jours",
    trialText: "5 requêtes offertes pendant 7 jours, sans carte bancaire.",
    plansTitle: "Des forfaits simples",
    plansBasic: "Basic — 11,99 €/mois, 10 requêtes par mois",
    plansPro: "Pro — 29,90 €/mois, 30 requêtes par mois, support prioritaire",
    ctaTitle: "Prêt à essayer ?",
    ctaButton: "Créer mon compte gratuitement",
  },
} as const;
