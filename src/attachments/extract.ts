import type { ExtractJob, ExtractResult } from "./extract-job.ts";

export type ExtractLimits = { timeoutMs: number; maxBytes: number };

/** How often the memory of the process is looked at while a worker reads a file. */
const WATCH_MS = 20;

// Module state: extractions run one after another in a process, so the memory one causes is its own to measure.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Reads one file in a fresh worker (extract.worker.ts), so that a hostile
 * file (a PDF of thousands of pages, a DOCX that inflates to gigabytes, a
 * picture of 30,000 × 30,000 pixels) cannot stall or crash the server: the
 * worker is stopped past `timeoutMs`, or as soon as the process's resident
 * memory has grown by `maxBytes` since it started (Bun's workers take no heap
 * limit, so the growth is watched from here). One extraction at a time per
 * process.
 */
export function extractInWorker(job: ExtractJob, limits: ExtractLimits): Promise<ExtractResult> {
  const run = queue.then(() => runWorker(job, limits));
  queue = run.catch(() => {});
  return run;
}

/**
 * The worker's file: beside this one from the sources; in the compiled
 * executable, where scripts/build-binary.ts lists it as a second entry point,
 * Bun keeps it as attachments/extract.worker.js under the root of its
 * embedded files, where this module's code also lives (bundled).
 */
function workerUrl(): URL {
  const compiled = import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
  return new URL(compiled ? "./attachments/extract.worker.js" : "./extract.worker.ts", import.meta.url);
}

function runWorker(job: ExtractJob, limits: ExtractLimits): Promise<ExtractResult> {
  return new Promise((resolve) => {
    const worker = new Worker(workerUrl(), { smol: true });
    const baseline = process.memoryUsage.rss();
    let done = false;
    const finish = (result: ExtractResult) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(watch);
      worker.terminate();
      resolve(result);
    };
    const deadline = setTimeout(() => finish({ ok: false, reason: "sa lecture a pris trop de temps" }), limits.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > limits.maxBytes) finish({ ok: false, reason: "sa lecture demande trop de mémoire" });
    }, WATCH_MS);
    worker.onmessage = (event: MessageEvent<ExtractResult>) => finish(event.data);
    worker.onerror = (e) => finish({ ok: false, reason: "ce fichier n'a pas pu être lu", detail: String(e.message) });
    worker.postMessage(job);
  });
}
