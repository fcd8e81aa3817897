/**
 * The peer review (« Délibération ») of a final answer, as the engine stores
 * it in `result_data.peer_review` and sends it in the `peer_review` run event:
 * each member that answered ranked the others' anonymised answers; the
 * aggregate is their average rank. Types only (the page reads them too).
 */

/** One answer's place in the aggregate: its label, the model that wrote it, its average rank (1 = best) and how many rankers ranked it. */
export type PeerRank = { label: string; name: string; average_rank: number; votes: number };

/** One member's ranking call: the order it gave (labels, best first), or why it gave none. */
export type PeerRanker = {
  name: string;
  ranked: boolean;
  order: string[];
  error: string | null;
  latency_ms: number;
  cost_eur: number;
};

export type PeerReview = {
  /** Best first; only answers at least one ranker ranked. */
  ranking: PeerRank[];
  rankers: PeerRanker[];
  /** « X n'a pas classé les réponses », one line per member that did not (error, timeout, unreadable). */
  failures: string[];
  /** The review's calls, in euros (also in the answer's `cost_eur`). */
  cost_eur: number;
  /** From the first ranking call to the last. */
  latency_ms: number;
};
