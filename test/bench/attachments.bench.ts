/**
 * Reading attachments: `bun test/bench/attachments.bench.ts` (part of
 * `npm run bench`). Extracts a 100-page PDF (each page 40 lines of text)
 * BENCH_ATTACH_RUNS (5) times through a reader process as the server does
 * (src/attachments/reader-pool.ts: a fresh process each time), then a DOCX
 * of the same text and a 4,000 × 3,000 PNG, sampling this process's resident
 * memory every 10 ms. Prints the median and worst time of each, and the
 * highest growth of this (the server's) resident memory over its level before the file.
 */
import type { ExtractJob } from "../../src/attachments/extract-job.ts";
import { ReaderPool } from "../../src/attachments/reader-pool.ts";
import { docx, png, textPdf } from "../helpers/attachment-files.ts";

const RUNS = Number(process.env.BENCH_ATTACH_RUNS ?? 5);
const pool = new ReaderPool({ timeoutMs: 120_000, budgetBytes: 4096 * 1024 * 1024, readers: 1 });
const MiB = 1024 * 1024;
const lines = (page: number) => Array.from({ length: 40 }, (_, n) => `Page ${page}, ligne ${n} : le bailleur et le locataire conviennent de ce qui suit.`);

async function measure(label: string, job: ExtractJob) {
  const times: number[] = [];
  let growth = 0;
  for (let i = 0; i < RUNS; i++) {
    Bun.gc(true);
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    const started = performance.now();
    const result = await pool.read(1, job);
    times.push(performance.now() - started);
    clearInterval(sampler);
    if (!result.ok) throw new Error(`${label}: ${result.reason}`);
    growth = Math.max(growth, peak - before);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${label.padEnd(34)} ${(job.bytes.length / 1024).toFixed(0).padStart(6)} KB  median ${median.toFixed(0).padStart(5)} ms  worst ${times.at(-1)!.toFixed(0).padStart(5)} ms  RSS growth ≤ ${(growth / MiB).toFixed(0)} MiB`,
  );
}

const pdf = await textPdf(100, lines);
await measure("PDF, 100 pages of 40 lines", { kind: "pdf", bytes: pdf, maxPages: 300 });
const paragraphs = Array.from({ length: 100 }, (_, p) => lines(p + 1)).flat();
await measure("DOCX, the same 4,000 lines", { kind: "docx", bytes: await docx(paragraphs), maxPages: 300 });
await measure("PNG 4,000 × 3,000 (resize to 1,568)", { kind: "png", bytes: await png(4000, 3000), maxPages: 300 });
