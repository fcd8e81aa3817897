/** A line longer than this is cut at its sentence ends: a paragraph is one line in Markdown. */
const LONG_LINE = 200;

/**
 * The stored answer as the deltas of a /v1 stream: one piece per line (its
 * newlines kept, a blank line with the line before it), a long line cut
 * after each sentence. The pieces add up to the text exactly.
 *
 * The answer is streamed only once the run stored it (issues 43 and 47): a
 * synthesis is judged whole after it is written (its layout, a refusal
 * inside its sections), so any text sent before could turn out wrong, and a
 * stream cannot take text back. Sent in pieces rather than one delta, so a
 * client's typing effect and its per-chunk handling still work.
 */
export function answerPieces(text: string): string[] {
  return text.split(/(?<=\n)(?!\n)/).flatMap((line) => (line.length > LONG_LINE ? line.split(/(?<=[.!?…] )(?=\S)/) : [line]));
}
