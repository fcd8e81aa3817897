import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { answerPieces } from "../../../src/openai/forward.ts";

/** Lines of a stored answer: titles, short and long paragraphs, blanks, a notice, sources. */
const LINE = fc.oneof(
  fc.constantFrom(
    "## Réponse consolidée",
    "> **Réponse partielle** : synthèse établie à partir de 5 réponses sur 6.",
    "",
    "  ",
    "- https://exemple.fr",
    "## Sources",
  ),
  fc
    .array(fc.constantFrom("Paris est la capitale. ", "Selon la Réponse A (GPT-4), oui ! ", "Vraiment ? ", "Sans point final", "… "), { maxLength: 30 })
    .map((s) => s.join("")),
  fc.string(),
);

describe("property: the pieces a /v1 stream sends of the stored answer", () => {
  test("they add up to the answer exactly, none empty, one per line at most unless the line is long", () => {
    fc.assert(
      fc.property(fc.array(LINE, { maxLength: 20 }), fc.constantFrom("\n", "\r\n"), (lines, eol) => {
        const text = lines.join(eol);
        const pieces = answerPieces(text);
        expect(pieces.join("")).toBe(text);
        expect(pieces.every((p) => p.length > 0) || text === "").toBe(true);
        for (const p of pieces) if (p.length <= 200) expect(p.replace(/\n+$/, "")).not.toContain("\n");
      }),
      { numRuns: 2000 },
    );
  });

  test("a stored answer of several lines comes in several pieces, a long paragraph cut after its sentences", () => {
    const long = "Paris est la capitale de la France depuis longtemps. ".repeat(6).trim();
    const pieces = answerPieces(`## Réponse consolidée\n${long}\n\n## Sources\n- https://exemple.fr`);
    expect(pieces.slice(0, 2)).toEqual(["## Réponse consolidée\n", "Paris est la capitale de la France depuis longtemps. "]);
    expect(pieces.at(-3)).toBe("Paris est la capitale de la France depuis longtemps.\n\n");
    expect(pieces.slice(-2)).toEqual(["## Sources\n", "- https://exemple.fr"]);
  });
});
