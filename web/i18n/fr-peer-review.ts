/** Texts of the peer review (« Délibération ») beside an answer, kept apart so layout changes merge. */
export const frPeerReview = {
  title: "Classement par les pairs",
  explain: "Chaque IA a classé les réponses des autres sans savoir qui les avait écrites ; rang moyen, 1 = la meilleure.",
  average: (rank: string) => `rang moyen ${rank}`,
  votes: (n: number) => `${n} classement${n > 1 ? "s" : ""}`,
  letter: (l: string) => `Réponse ${l}`,
  underway: "Délibération : chaque IA classe les réponses des autres…",
  over: "Délibération terminée : le classement est transmis au rédacteur de la synthèse.",
  because: (line: string, reason: string | null) => (reason ? `${line} : ${reason}.` : `${line}.`),
};
