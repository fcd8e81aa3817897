/**
 * The section check against the labelled layouts (test/fixtures/synthesis-layouts.ts,
 * issue 43): how many complete answers it rejects (each costs one more
 * synthesis call, the dearest of a run) and how many incomplete ones it
 * lets through. `bun test/bench/layouts.bench.ts`; figures in docs/BENCHMARKS.md.
 */
import { sectionValidator } from "../../src/chat/answer-structure.ts";
import { LAYOUTS } from "../fixtures/synthesis-layouts.ts";

const accepted = LAYOUTS.filter((l) => l.accepted);
const rejected = LAYOUTS.filter((l) => !l.accepted);
const falseRejections = accepted.filter((l) => sectionValidator(l.text) !== null);
const falseAcceptances = rejected.filter((l) => sectionValidator(l.text) === null);
const rate = (n: number, of: number) => `${n}/${of} (${((100 * n) / of).toFixed(1)} %)`;

console.log(`complete answers rejected: ${rate(falseRejections.length, accepted.length)}`);
for (const l of falseRejections) console.log(`  - ${l.name}`);
console.log(`incomplete answers accepted: ${rate(falseAcceptances.length, rejected.length)}`);
for (const l of falseAcceptances) console.log(`  - ${l.name}`);
