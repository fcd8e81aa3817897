/** Texts of the council's web search on the page (issue 45), kept apart so layout changes merge. */
export const frWebSearch = {
  toggle: "Recherche web",
  toggleOnHint: "Recherche web activée : les IA reçoivent les mêmes sources trouvées sur le web.",
  toggleOffHint: "Recherche web désactivée : les IA répondent de leurs connaissances.",
  searching: "Recherche sur le web…",
  found: (n: number) => (n === 1 ? "1 source trouvée, donnée à chaque IA :" : `${n} sources trouvées, données à chaque IA :`),
  sourcesLabel: "Sources web de la réponse",
};

/** The admin dashboard's web search figures (issue 45). */
export const frWebUsage = {
  perDay: "Recherche web par jour",
  perUser: "Recherche web : utilisateurs qui cherchent le plus",
  day: "Jour",
  user: "Utilisateur",
  searches: "Recherches",
  fetches: "Pages lues",
};
