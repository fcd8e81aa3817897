/** The peer review's French texts on the server side (the reasons stored with the answer). */
export const frPeerReview = {
  notRanked: (name: string) => `${name} n'a pas classé les réponses`,
  unreadable: "classement illisible (la ligne « CLASSEMENT : » manque ou ne classe pas chaque réponse une fois)",
  notWaited: "non attendu, les autres avaient déjà classé",
  /** The Markdown export's lines under an answer: « **Classement par les pairs :** 1. GPT-4 (Réponse A, rang moyen 1) ; … ». */
  exportRanking: (ranking: ReadonlyArray<{ name: string; label: string; average_rank: number }>, failures: readonly string[]) =>
    [
      `**Classement par les pairs :** ${ranking.map((r, i) => `${i + 1}. ${r.name} (Réponse ${r.label}, rang moyen ${r.average_rank.toLocaleString("fr-FR")})`).join(" ; ")}`,
      ...failures.map((f) => `${f}.`),
    ].join("\n\n"),
  noTime: "plus assez de temps dans le budget de la réponse",
};
