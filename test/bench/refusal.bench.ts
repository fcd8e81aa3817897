/**
 * The refusal judgment on the whole corpus (test/fixtures/refusal-corpus):
 * the confusion table (TP/FP/TN/FN, a refusal being the positive) per
 * category and per language, for the local pre-filter alone and for the full
 * pipeline with the confirmation's fake (its fixed rule:
 * test/fakes/ai/refusal-judge.ts), the held-out part apart, and the
 * pre-filter's time per text. Markdown for docs/BENCHMARKS.md (« Refusal
 * judgment »). Not a test: `bun test/bench/refusal.bench.ts`.
 */
import { readRefusal } from "../../src/ai/refusal.ts";
import { sectionValidator } from "../../src/chat/answer-structure.ts";
import { fakeJudgeSaysRefusal } from "../fakes/ai/refusal-judge.ts";
import { CORPUS, type Entry, HELD_OUT, HELD_OUT_FIRST, HELD_OUT_LAST } from "../fixtures/refusal-corpus/index.ts";

const hints = (e: Entry) => {
  const synthesis = e.kind === "synthesis";
  return { synthesis, structureMissing: synthesis && sectionValidator(e.text) !== null };
};
const verdicts = new Map(CORPUS.map((e) => [e, readRefusal(e.text, hints(e)).verdict]));
const prefilter = (e: Entry) => verdicts.get(e) === "refusal";
const pipeline = (e: Entry) => prefilter(e) || (verdicts.get(e) === "ambiguous" && fakeJudgeSaysRefusal(e.text));

type Cell = { tp: number; fp: number; tn: number; fn: number };
function confusion(entries: Entry[], discards: (e: Entry) => boolean): Cell {
  const c = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (const e of entries) {
    const refusal = e.label === "refusal";
    const out = discards(e);
    if (refusal && out) c.tp++;
    else if (refusal) c.fn++;
    else if (out) c.fp++;
    else c.tn++;
  }
  return c;
}
const cells = (c: Cell) => `${c.tp} | ${c.fp} | ${c.tn} | ${c.fn}`;

function table(title: string, key: (e: Entry) => string) {
  console.log(`\n${title}\n`);
  console.log("| group | texts | pre-filter TP | FP | TN | FN | pipeline TP | FP | TN | FN |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  const groups = [...new Set(CORPUS.map(key))].sort();
  for (const g of groups) {
    const entries = CORPUS.filter((e) => key(e) === g);
    console.log(`| ${g} | ${entries.length} | ${cells(confusion(entries, prefilter))} | ${cells(confusion(entries, pipeline))} |`);
  }
}

function rates(name: string, entries: Entry[]) {
  for (const [stage, f] of [
    ["pre-filter alone", prefilter],
    ["pre-filter + confirmation (fake rule)", pipeline],
  ] as const) {
    const c = confusion(entries, f);
    const useful = c.fp + c.tn;
    const refusals = c.tp + c.fn;
    console.log(
      `| ${name} | ${stage} | ${entries.length} | ${c.fp} of ${useful} (${((100 * c.fp) / useful).toFixed(1)} %) | ${c.fn} of ${refusals} (${((100 * c.fn) / refusals).toFixed(1)} %) |`,
    );
  }
}

console.log(`Corpus: ${CORPUS.length} texts (${HELD_OUT.length} held out).`);
console.log("\n| part | stage | texts | useful discarded (FP) | refusals kept (FN) |\n|---|---|---|---|---|");
const held = new Set(HELD_OUT);
rates(
  "tuning",
  CORPUS.filter((e) => !held.has(e)),
);
rates("held-out, before the design", HELD_OUT_FIRST);
rates("held-out, after the last tuning", HELD_OUT_LAST);
rates("all", CORPUS);

const ambiguous = CORPUS.filter((e) => verdicts.get(e) === "ambiguous").length;
const partials = CORPUS.filter((e) => e.label === "partial");
const marked = partials.filter((e) => verdicts.get(e) === "partial").length;
const wronglyMarked = CORPUS.filter((e) => e.label === "answer" && verdicts.get(e) === "partial").length;
console.log(`\nSent to the confirmation (ambiguous): ${ambiguous} of ${CORPUS.length} texts.`);
console.log(`Partial refusals marked partial: ${marked} of ${partials.length}; useful answers marked partial: ${wronglyMarked}.`);

table("By category", (e) => e.category);
table("By language", (e) => e.lang);

// The pre-filter's cost: every answer and synthesis pays it.
const rounds = 20;
const times: number[] = [];
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  for (const e of CORPUS) readRefusal(e.text, hints(e));
  times.push(((performance.now() - start) * 1000) / CORPUS.length);
}
times.sort((a, b) => a - b);
console.log(`\nPre-filter time per corpus text: median ${times[rounds >> 1]!.toFixed(1)} µs, worst round ${times.at(-1)!.toFixed(1)} µs (${rounds} rounds).`);
// A long answer of distinct sentences, many of them declines: every sentence goes through every pattern.
const long = CORPUS.filter((e) => e.kind === "answer" && !e.text.startsWith("{"))
  .map((e) => e.text)
  .join("\n");
const t0 = performance.now();
for (let r = 0; r < 20; r++) readRefusal(long);
console.log(`A ${long.length}-character text (every corpus answer joined): ${((performance.now() - t0) / 20).toFixed(1)} ms.`);
