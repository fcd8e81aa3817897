/** Texts of the live run view (issue "live answers"), kept apart so layout changes merge; preciseEuros also serves the usage section. */
export const frLive = {
  run: {
    title: "Analyse en cours",
    waiting: "en attente…",
    writing: "rédige…",
    answered: (s: string) => `a répondu en ${s} s`,
    failed: (reason: string) => `échec : ${reason}`,
    /** A member that declined the question: it answered, so not a failure of the model (its reason is REFUSAL_REASON). */
    declined: "a refusé de répondre",
    leftOut: "non attendu (délai dépassé)",
    skipped: (reason: string) => reason,
    synthesis: (model: string) => `Synthèse rédigée par ${model}…`,
    synthesisRetry: (model: string, reason: string) => `${model} n'a pas pu rédiger la synthèse (${reason}) : le modèle suivant prend le relais.`,
    done: "Analyse terminée",
    retry: "Réessayer",
    /** In place of « Réessayer » when the council declined: the question's edit box (« Modifier »). */
    editQuestion: "Modifier la question",
    failedTitle: "La synthèse n'a pas pu être établie",
    individualTitle: "Réponses individuelles des modèles (sans synthèse)",
  },
  writing: {
    of: (model: string) => `Réponse de ${model} en cours d'écriture`,
    expand: "Tout afficher",
    collapse: "Réduire",
    folded: (n: number) => (n > 1 ? `Réponses des ${n} modèles` : "Réponse du modèle"),
  },
  panel: {
    toggle: "Détail par modèle",
    answerCost: (eur: string) => `Coût de cette réponse : ${eur}`,
    latency: (s: string) => `${s} s`,
    tokens: (i: number | null, o: number | null) => `${i ?? "?"} → ${o ?? "?"} jetons`,
    status: { answered: "a répondu", failed: "échec", left_out: "non attendu", skipped: "non interrogé" } as Record<string, string>,
    synthesisBy: (m: string) => `Synthèse : ${m}`,
    notCharged: "Non décomptée",
  },
};

/** The server's reason for a member that declined (src/i18n/fr-chat.ts, reason.refusal), as stored in answers and events. */
export const REFUSAL_REASON = "refus du modèle";

/** Fractions of a cent: four decimals, French format. */
export const preciseEuros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", minimumFractionDigits: 4, maximumFractionDigits: 4 });
