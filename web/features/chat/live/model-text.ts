/**
 * A model's text with one `model_delta` piece placed (src/contracts/run-events.ts):
 * the piece goes at `from`, replacing what was there (a client that comes
 * back gets the whole text so far from 0); a piece that starts past the end
 * is skipped (text it missed comes again from 0 with the next checkpoint).
 */
export function placePiece(text: string, from: number, piece: string): string {
  if (from > text.length) return text;
  // A text so far that is shorter than what is shown (an older checkpoint) never shortens it.
  if (from + piece.length <= text.length && text.startsWith(piece, from)) return text;
  return text.slice(0, from) + piece;
}
