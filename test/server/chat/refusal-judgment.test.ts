import { describe, expect, test } from "bun:test";
import { type RefusalVerdict, readRefusal } from "../../../src/ai/refusal.ts";
import { sectionValidator } from "../../../src/chat/answer-structure.ts";
import { CORPUS, type Entry } from "../../fixtures/refusal-corpus/index.ts";
import { fakeJudgeSaysRefusal } from "../../fakes/ai/refusal-judge.ts";

/** The pre-filter's verdict on a corpus text, judged as the engine judges it (a synthesis with its section check). */
function prefilter(e: Entry): RefusalVerdict {
  const synthesis = e.kind === "synthesis";
  return readRefusal(e.text, { synthesis, structureMissing: synthesis && sectionValidator(e.text) !== null }).verdict;
}

/** The whole pipeline: an ambiguous text goes to the confirmation, here the fake clarifier's fixed rule (test/fakes/ai/refusal-judge.ts). */
function discarded(e: Entry): boolean {
  const v = prefilter(e);
  return v === "refusal" || (v === "ambiguous" && fakeJudgeSaysRefusal(e.text));
}

const useful = CORPUS.filter((e) => e.label !== "refusal");
const refusals = CORPUS.filter((e) => e.label === "refusal");
const of = (category: Entry["category"], label?: Entry["label"]) => CORPUS.filter((e) => e.category === category && (!label || e.label === label));
const short = (e: Entry) => e.text.replace(/\s+/g, " ").slice(0, 90);
/** The texts the judgment discards, and those it keeps, shortened for the failure message. */
const lost = (es: Entry[]) => es.filter(discarded).map(short);
const kept = (es: Entry[]) => es.filter((e) => !discarded(e)).map(short);

describe("the whole corpus through the judgment (test/fixtures/refusal-corpus, docs/BENCHMARKS.md)", () => {
  test("the corpus holds at least 300 texts, refusals in at least 8 languages", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(refusals.map((e) => e.lang)).size).toBeGreaterThanOrEqual(8);
  });

  test("no useful answer is discarded, pre-filter and confirmation together", () => {
    expect(lost(useful)).toEqual([]);
  });

  test("no useful answer is discarded by the pre-filter alone (an ambiguous text is kept when no confirmation answers)", () => {
    expect(useful.filter((e) => prefilter(e) === "refusal").map(short)).toEqual([]);
  });

  test("at least 95 % of the refusals are caught, pre-filter and confirmation together", () => {
    const caught = refusals.filter(discarded).length;
    expect(caught / refusals.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe("useful answers that look like refusals are kept (each of these was discarded on 576edfd)", () => {
  test('an ordinary hedge, then the answer (« …sans plus d\'informations, mais voici… », « …à votre place, mais… », "…for you, but…")', () => {
    expect(lost(of("hedge"))).toEqual([]);
  });

  test.each([
    ["a translation of a refusal sentence", "translation"],
    ["a letter or customer-service template that declines", "template"],
    ["a dialogue where a character declines", "dialogue"],
    ["an error message quoted in a code span", "code"],
  ] as const)("%s", (_, category) => {
    expect(lost(of(category))).toEqual([]);
  });

  test("a synthesis whose « Divergences » reports that a member declined", () => {
    expect(lost(of("synthesis", "answer"))).toEqual([]);
  });
});

describe("refusals are recognised wherever they stand (each of these was kept on 576edfd)", () => {
  test.each(["es", "de", "it", "pt", "zh", "nl", "ja", "ru"])("a refusal in %s", (lang) => {
    const inLang = refusals.filter((e) => e.lang === lang);
    expect(inLang.length).toBeGreaterThan(0);
    expect(kept(inLang)).toEqual([]);
  });

  test.each([
    "Je préfère ne pas me prononcer sur ce sujet.",
    "Je ne vais pas répondre à cette question.",
    "Sorry, I can't do that.",
    "Unfortunately, I cannot provide that information.",
  ])("a French or English refusal in other words: %s", (text) => {
    expect(readRefusal(text).verdict).toBe("refusal");
  });

  test("a refusal after a long polite preamble", () => {
    expect(kept(of("preamble"))).toEqual([]);
  });

  test("a synthesiser that refuses inside the three sections", () => {
    expect(kept(of("synthesis", "refusal"))).toEqual([]);
  });

  test("a refusal inside a /v1 JSON answer", () => {
    expect(readRefusal('{"reponse":"Je suis désolé, mais je ne peux pas vous aider avec cette demande."}').verdict).toBe("refusal");
    expect(kept(of("json", "refusal"))).toEqual([]);
  });
});

describe("a partial refusal: kept and marked", () => {
  test("a useful JSON answer, even one that carries a refusal as a template value, is kept (a guard: 576edfd kept these too)", () => {
    expect(lost(of("json", "answer"))).toEqual([]);
  });

  test("a text that declines one part and answers the other is kept", () => {
    expect(lost(of("partial"))).toEqual([]);
  });

  test("it is marked partial (the flag the engine stores for the notices)", () => {
    expect(
      of("partial")
        .filter((e) => prefilter(e) !== "partial")
        .map(short),
    ).toEqual([]);
  });
});
