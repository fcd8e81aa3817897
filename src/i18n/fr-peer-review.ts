/** The peer review's French texts on the server side (the reasons stored with the answer). */
export const frPeerReview = {
  notRanked: (name: string) => `${name} n'a pas classé les réponses`,
  unreadable: "classement illisible (la ligne « CLASSEMENT : » manque ou ne classe pas chaque réponse une fois)",
  notWaited: "non attendu, les autres avaient déjà classé",
  noTime: "plus assez de temps dans le budget de la réponse",
};
