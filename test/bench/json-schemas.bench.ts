/**
 * Heap kept by /v1's JSON Schemas after 5,000 requests (issue 48): each
 * request brings its schema as a new object. Compared in one process: one
 * process-wide Ajv compiling each object (576edfd's way: Ajv caches by
 * object, so every request's schema stays) against compileSchema
 * (src/chat/json-schemas.ts: by content, at most 200, Ajv's cache emptied).
 * Two loads: the same schema every time (one client), and 5,000 different
 * ones (many clients). Heap measured after a full GC.
 *   node_modules/.bin/bun test/bench/json-schemas.bench.ts
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { compileSchema } from "../../src/chat/json-schemas.ts";

const N = Number(process.env.BENCH_N ?? 5_000);
const schema = (i: number) => ({
  type: "object",
  title: `schéma ${i}`,
  properties: { ville: { type: "string" }, pays: { type: "string" }, population: { type: "number" } },
  required: ["ville", "pays", "population"],
  additionalProperties: false,
});

function heapMb(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function measure(name: string, compile: (s: Record<string, unknown>) => unknown, distinct: boolean) {
  const before = heapMb();
  const started = performance.now();
  for (let i = 0; i < N; i++) compile(schema(distinct ? i : 0));
  const ms = performance.now() - started;
  console.log(`| ${name} | ${distinct ? "all different" : "the same"} | ${(heapMb() - before).toFixed(1)} | ${((ms * 1000) / N).toFixed(0)} |`);
}

console.log(`${N} schemas, each a new object\n`);
console.log("| compiled by | schemas | heap kept (MB) | µs per schema |");
console.log("|---|---|---|---|");
const processWide = new Ajv2020({ strict: false });
measure("one process-wide Ajv (576edfd)", (s) => processWide.compile(s), false);
const processWide2 = new Ajv2020({ strict: false });
measure("one process-wide Ajv (576edfd)", (s) => processWide2.compile(s), true);
measure("compileSchema (by content, 200 kept)", compileSchema, false);
measure("compileSchema (by content, 200 kept)", compileSchema, true);
