import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { looksLikeRefusal } from "../../../src/ai/refusal.ts";
import { sectionValidator } from "../../../src/chat/answer-structure.ts";
import { COMPANION_PHRASES, EXPLANATIONS, MARKER_PHRASES, NORMAL_ANSWERS, REAL_REFUSALS } from "./refusal-corpus.ts";

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const asSynthesis = (body: string) => `## Réponse consolidée\n${body}\n## Points de consensus\nToutes d'accord.\n## Divergences\nAucune divergence notable.`;

describe("refusals recognised however they are worded", () => {
  test.each(REAL_REFUSALS)("a refusal: %s", (text) => {
    expect(looksLikeRefusal(text)).toBe(true);
  });

  test.each(NORMAL_ANSWERS)("an answer, not a refusal: %s", (text) => {
    expect(looksLikeRefusal(text)).toBe(false);
    expect(looksLikeRefusal(asSynthesis(text), { structureMissing: sectionValidator(asSynthesis(text)) !== null })).toBe(false);
  });

  test("a synthesis that declines somewhere in a short text, with no sections, is a refusal (the missing structure is a signal)", () => {
    const text = `Les réponses que vous m'avez transmises portent sur un sujet délicat. ${EXPLANATIONS[5]} Je ne peux pas rédiger cette synthèse.`.repeat(1);
    expect(looksLikeRefusal(text.padEnd(600, " Les sources divergent."), { structureMissing: true })).toBe(true);
  });

  test("property: any generated refusal (marker anywhere, with an apology, an opening marker or a short text) is recognised", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...COMPANION_PHRASES), { nil: null }),
        fc.constantFrom(...MARKER_PHRASES),
        fc.array(fc.constantFrom(...EXPLANATIONS), { maxLength: 12 }),
        fc.array(fc.constantFrom(...EXPLANATIONS), { maxLength: 3 }),
        (companion, marker, after, before) => {
          // Without an apology the marker opens the text; with one, it may come after other sentences.
          const lead = companion ? [...before, `${companion} ${marker}`] : [capitalised(marker)];
          const text = [...lead, ...after].join(" ");
          fc.pre(text.length <= 1_500);
          expect(looksLikeRefusal(text)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("property: no normal answer, alone or mixed with others, long or short, is taken for a refusal", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...NORMAL_ANSWERS), { minLength: 1, maxLength: 6 }), fc.boolean(), (parts, synthesis) => {
        const body = parts.join(synthesis ? "\n\n" : " ");
        const text = synthesis ? asSynthesis(body) : body;
        expect(looksLikeRefusal(text, { structureMissing: synthesis && sectionValidator(text) !== null })).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the structure the synthesis prompt asks for", () => {
  test("the three sections in order, each with content, headings or bold titles: valid", () => {
    expect(sectionValidator(asSynthesis("Paris."))).toBeNull();
    expect(sectionValidator("**Réponse consolidée**\nParis.\n**Points de consensus :**\nParis.\n### Divergences\nAucune.")).toBeNull();
    expect(sectionValidator("## 1. Réponse consolidée\nParis.\n## 2. *Points de consensus*\nParis.\n## 3) Divergences :\nAucune.")).toBeNull();
    expect(sectionValidator("# REPONSE CONSOLIDEE\nParis.\n# Points de consensus\nParis.\n# Divergences\nAucune.")).toBeNull();
  });

  test.each([
    ["no section", "L'inflation est due à"],
    ["a section missing", "## Réponse consolidée\nParis.\n## Divergences\nAucune."],
    ["out of order", "## Divergences\nAucune.\n## Réponse consolidée\nParis.\n## Points de consensus\nParis."],
    ["an empty section", "## Réponse consolidée\nParis.\n## Points de consensus\n\n## Divergences\nAucune."],
    ["the last section empty", "## Réponse consolidée\nParis.\n## Points de consensus\nParis.\n## Divergences\n"],
    [
      "only a trailing Sources after the last title",
      "## Réponse consolidée\nParis.\n## Points de consensus\nParis.\n## Divergences\n## Sources\n- https://x.example",
    ],
  ])("%s: not valid", (_, text) => {
    expect(sectionValidator(text)).toBe("synthèse sans la structure demandée");
  });
});
