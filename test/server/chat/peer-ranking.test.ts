import { describe, expect, test } from "bun:test";
import { aggregateRanking, parseRanking } from "../../../src/chat/peer-ranking.ts";

const SHOWN = ["A", "B", "C"];

describe("reading a member's ranking (« CLASSEMENT : B, A, C »)", () => {
  test("the strict last line", () => {
    expect(parseRanking("A est exacte.\nB est vague.\n\nCLASSEMENT : B, A, C", SHOWN)).toEqual(["B", "A", "C"]);
  });

  test("what models add around the letters: « Réponse », bold, « > », a final dot", () => {
    expect(parseRanking("**CLASSEMENT :** Réponse C > Réponse A > Réponse B.", SHOWN)).toEqual(["C", "A", "B"]);
    expect(parseRanking("Classement final : **B**, **C**, **A**", SHOWN)).toEqual(["B", "C", "A"]);
  });

  test("a numbered list under the marker, up to the first blank line", () => {
    expect(parseRanking("CLASSEMENT :\n\n1. Réponse A\n2. Réponse C\n3. Réponse B\n\nJ'espère que cela aide. B", SHOWN)).toEqual(["A", "C", "B"]);
  });

  test("the last marker counts (the model quoted the format in its evaluation)", () => {
    expect(parseRanking("Le format est « CLASSEMENT : B, A, C ».\nCLASSEMENT : C, B, A", SHOWN)).toEqual(["C", "B", "A"]);
  });

  test("unreadable: no marker, an answer left out, or one not shown (its own)", () => {
    expect(parseRanking("B est la meilleure, puis A, puis C.", SHOWN)).toBeNull();
    expect(parseRanking("CLASSEMENT : B, A", SHOWN)).toBeNull();
    expect(parseRanking("CLASSEMENT : B, A, D, C", SHOWN)).toBeNull();
  });

  test("a letter repeated counts at its first place", () => {
    expect(parseRanking("CLASSEMENT : B, A, B, C", SHOWN)).toEqual(["B", "A", "C"]);
  });
});

describe("the aggregate: average rank, best first", () => {
  test("averages the places, ties to the answer more rankers ranked, then to the label", () => {
    const labels = { A: "GPT-4", B: "Gemini Pro", C: "Sonar Pro" };
    const ranking = aggregateRanking(
      [
        ["B", "C"],
        ["A", "C"],
        ["A", "B"],
      ],
      labels,
    );
    expect(ranking).toEqual([
      { label: "A", name: "GPT-4", average_rank: 1, votes: 2 },
      { label: "B", name: "Gemini Pro", average_rank: 1.5, votes: 2 },
      { label: "C", name: "Sonar Pro", average_rank: 2, votes: 2 },
    ]);
  });
});
