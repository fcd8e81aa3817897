import type { PeerRank } from "../contracts/peer-review.ts";

/** The last « CLASSEMENT : » (or « CLASSEMENT FINAL : ») of a text, and whatever follows it. */
const MARKER = /CLASSEMENT(?:\s+FINAL)?\s*:/gi;

/**
 * The order a ranker gave, read from its strict last line (« CLASSEMENT : B, A, C »),
 * or null when it is unreadable. Tolerant of what models add around the letters
 * (« Réponse B », bold, a numbered list on the following lines, « > » between
 * them); strict on the content: every answer shown ranked exactly once, none
 * invented. A letter repeated counts at its first place.
 */
export function parseRanking(text: string, shown: readonly string[]): string[] | null {
  const markers = [...text.matchAll(MARKER)];
  const last = markers.at(-1);
  if (!last) return null;
  const [line = "", ...after] = text.slice(last.index + last[0].length).split("\n");
  // The letters are on the marker's line, or (a list) on the lines right under it, up to a blank line.
  const tail = letters(line).length > 0 ? line : listUnder(after);
  const order: string[] = [];
  for (const label of letters(tail)) {
    if (!shown.includes(label)) return null;
    if (!order.includes(label)) order.push(label);
  }
  return order.length === shown.length ? order : null;
}

/** The lines of a list: from the first non-blank line to the next blank one. */
function listUnder(lines: readonly string[]): string {
  const start = lines.findIndex((l) => l.trim());
  if (start < 0) return "";
  const end = lines.findIndex((l, i) => i > start && !l.trim());
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

/** The single capital letters of a text (« Réponse B », « **B** », « 1. B »), in order. */
function letters(text: string): string[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}])([A-Z])(?![\p{L}\p{N}])/gu)].map((m) => m[1]!);
}

/**
 * The aggregate of the rankers' orders: each answer's average place (1 = best),
 * best first; a tie goes to the answer more rankers ranked, then to the label.
 */
export function aggregateRanking(orders: ReadonlyArray<readonly string[]>, labels: Readonly<Record<string, string>>): PeerRank[] {
  const places = new Map<string, number[]>();
  for (const order of orders) {
    for (const [i, label] of order.entries()) places.set(label, [...(places.get(label) ?? []), i + 1]);
  }
  return [...places.entries()]
    .map(([label, ranks]) => ({
      label,
      name: labels[label] ?? label,
      average_rank: Math.round((ranks.reduce((a, b) => a + b, 0) / ranks.length) * 100) / 100,
      votes: ranks.length,
    }))
    .sort((a, b) => a.average_rank - b.average_rank || b.votes - a.votes || a.label.localeCompare(b.label));
}
