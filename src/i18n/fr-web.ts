/** The French texts of the council's web search (issue 45). */
export const frWeb = {
  /** Above an answer whose web search gave nothing to read (an outage, unreadable pages). */
  failed: "La recherche web n'a pas pu aboutir : réponse établie sans sources web.",
  searchModel: "Recherche web",
  fetchModel: "Lecture de page web",
  /** The ledger's error of a page fetched but not read. */
  pageNotRead: "page non lue (refusée, injoignable, trop lente ou illisible)",
} as const;
