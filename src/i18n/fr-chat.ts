/**
 * The French texts of the chat engine that reach the user outside the error
 * table (src/lib/errors.ts): the replies it writes itself, the notice of a
 * degraded answer, why a model is missing from an answer, and the words of a
 * conversation's Markdown export. docs/PRODUCT.md#conversation-flow,
 * #degraded-answers, #history-search. The models' own instructions stay in
 * src/chat/chat.prompts.ts (see docs/ARCHITECTURE.md, "Texts").
 */
export const frChat = {
  /** The line ending a /v1 answer cut to the client's max_tokens. */
  apiCut: (maxTokens: number) => `Réponse abrégée : la limite demandée (max_tokens = ${maxTokens}) est atteinte.`,
  /** The line ending a council member's answer cut to the length it was asked for (answer-length.ts). */
  memberCut: "Réponse abrégée : elle dépassait la longueur demandée aux modèles.",
  /** The engine's own replies (conversation flow). */
  reply: {
    tooShort:
      "Votre message est un peu court pour que les IA puissent vous répondre utilement. Pouvez-vous préciser votre question : le sujet, votre objectif et le niveau de détail attendu ?",
    clarifyIntro: "Pour vous donner la meilleure réponse, pouvez-vous préciser :",
    noSources: "Aucune source citée par les modèles.",
  },
  /** The notice that opens a degraded answer; its parts are joined by a space. */
  degraded: {
    partial: (answered: number, asked: number) =>
      `**Réponse partielle** : synthèse établie à partir de ${answered} réponse${answered > 1 ? "s" : ""} sur ${asked}.`,
    missing: (list: string) => `Sans réponse : ${list}.`,
    /** The members that declined the question, apart from those that did not answer at all (issue 43's try-out). */
    declined: (names: readonly string[]) => `${names.length > 1 ? "Ont" : "A"} refusé de répondre : ${names.join(", ")}.`,
    fallback: (primary: string, intended: string) => `Synthèse rédigée par ${primary} à la place de ${intended}.`,
    notCharged: (under: number) => `Moins de ${under} réponses : cette requête ne vous est pas décomptée.`,
  },
  /**
   * Too few answers because members declined (COUNCIL_DECLINED): who declined, that no synthesis is possible, that
   * nothing was charged, and that the same question would most likely be declined again.
   */
  declined: (names: readonly string[], all: boolean) => {
    const who = all
      ? "Toutes les IA consultées ont refusé de répondre à cette question : il n'y a aucune réponse à synthétiser."
      : `${names.length > 1 ? `${names.slice(0, -1).join(", ")} et ${names.at(-1)} ont` : `${names[0]} a`} refusé de répondre à cette question, et trop peu d'IA ont répondu pour établir une synthèse fiable (au moins 2 réponses sont nécessaires).`;
    return `${who} Votre requête n'a pas été décomptée. Renvoyée telle quelle, elle recevrait sans doute le même refus : vous pouvez la reformuler avec « Modifier ».`;
  },
  /** Why a model's answer is missing (answer notice, live view, result_data, logs). */
  reason: {
    notJson: "synthèse qui n'est pas du JSON",
    notJsonObject: "synthèse JSON qui n'est pas un objet",
    schemaMismatch: (detail: string) => `synthèse JSON non conforme au schéma (${detail})`,
    refusal: "refus du modèle",
    cut: "réponse interrompue",
    empty: "réponse vide",
    truncated: "synthèse tronquée (limite de jetons)",
    structure: "synthèse sans la structure demandée",
    noKey: "clé API non configurée",
    cancelled: "écarté",
    stalled: "flux interrompu (plus aucun texte reçu)",
    deadline: "délai dépassé",
    leftOut: "délai dépassé (non attendu)",
    leftOutAfter: (seconds: number) => `délai dépassé (non attendu après ${seconds} s)`,
    skippedNoKey: "non interrogé : clé API non configurée",
    /** A stored key this server cannot open, or an *_API_KEY withheld from the member's address (resolve-member.ts). */
    skippedKeyUnusable: "non interrogé : sa clé d'API est inutilisable, l'administrateur doit la saisir de nouveau",
    skippedRateLimited: (until: string) => `non interrogé : limite de débit (reprise à ${until})`,
    skippedDown: (since: string) => `non interrogé : indisponible depuis ${since}`,
  },
  /** The Markdown export of a conversation. */
  export: {
    title: (date: string) => `_Conversation Unisson du ${date}._`,
    question: "Question",
    answer: "Réponse",
    modelsConsulted: "**Modèles consultés :**",
    synthesisBy: (model: string) => ` (synthèse : ${model})`,
    failed: "**Sans réponse :**",
    sources: "**Sources :**",
    attachments: "**Pièces jointes :**",
  },
};
