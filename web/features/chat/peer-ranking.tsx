import type { PeerReview } from "../../../src/contracts/peer-review.ts";
import { frPeerReview } from "../../i18n/fr-peer-review.ts";
import "./peer-ranking.css";

const t = frPeerReview;
const rank = (n: number) => n.toLocaleString("fr-FR", { maximumFractionDigits: 2 });

/**
 * Beside a consolidated answer, when the council's peer review ran: the
 * answers in the order the members ranked them (average rank), and who did
 * not rank. Nothing for an answer without one (review off, older answers).
 */
export function PeerRanking({ data }: { data: Record<string, unknown> | null }) {
  const review = data?.peer_review as PeerReview | null | undefined;
  if (!review || !Array.isArray(review.ranking) || !Array.isArray(review.rankers)) return null;
  // failures[i] names notRanked[i] (the engine writes both from the rankers, in order).
  const notRanked = review.rankers.filter((r) => !r.ranked);
  return (
    <section className="peer-ranking" aria-label={t.title}>
      <h3 className="peer-ranking-title" title={t.explain}>
        {t.title}
      </h3>
      {review.ranking.length > 0 && (
        <ol className="peer-ranking-list">
          {review.ranking.map((r) => (
            <li key={r.label}>
              <span className="peer-ranking-name">{r.name}</span>
              <span className="muted small"> · {t.letter(r.label)}</span>
              <span className="peer-ranking-figures">
                {t.average(rank(r.average_rank))} · {t.votes(r.votes)}
              </span>
            </li>
          ))}
        </ol>
      )}
      {review.failures.map((line, i) => (
        <p key={line} className="peer-ranking-failed small">
          {t.because(line, notRanked[i]?.error ?? null)}
        </p>
      ))}
    </section>
  );
}

/** In the live run, between the answers and the synthesis: the deliberation under way, then over (and who did not rank). */
export function LiveDeliberation({ review }: { review: { done: boolean; failures: string[] } }) {
  return (
    <div className="live-deliberation muted small">
      <p>{review.done ? t.over : t.underway}</p>
      {review.failures.map((line) => (
        <p key={line} className="peer-ranking-failed">
          {t.because(line, null)}
        </p>
      ))}
    </div>
  );
}
