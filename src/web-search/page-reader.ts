import type { PageJob, PageText } from "./page-text.ts";

/** A warm worker is stopped after this long without a page (its heap is returned). */
const IDLE_MS = 60_000;

/**
 * The worker's file: beside this one from the sources; in the compiled
 * executable, where scripts/build-binary.ts lists it as an entry point, Bun
 * keeps it as web-search/page-text.worker.js under the root of its embedded
 * files (as src/attachments/extract.ts's worker).
 */
function workerUrl(): URL {
  const compiled = import.meta.url.includes("$bunfs") || import.meta.url.includes("~BUN");
  return new URL(compiled ? "./web-search/page-text.worker.js" : "./page-text.worker.ts", import.meta.url);
}

type Pending = (text: PageText | null) => void;

/**
 * Pages' main text, extracted in a worker: Readability on a large page takes
 * most of a second (docs/BENCHMARKS.md, "Web search"), which on the main
 * thread would hold every other request. One worker, kept warm between
 * pages (starting one and loading happy-dom costs more than reading a
 * page), reads them one after the other; a page whose reading outlasts its
 * run's deadline stops the worker (the pages it held get no text, the next
 * page starts a new one).
 */
export class PageReader {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idle: ReturnType<typeof setTimeout> | null = null;

  read(job: PageJob, signal: AbortSignal): Promise<PageText | null> {
    if (signal.aborted) return Promise.resolve(null);
    const worker = this.warm();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const stop = () => this.stop();
      this.pending.set(id, (text) => {
        signal.removeEventListener("abort", stop);
        resolve(text);
      });
      // The deadline passed with this page still unread: the worker is stuck on it or behind it.
      signal.addEventListener("abort", stop, { once: true });
      worker.postMessage({ id, ...job });
    });
  }

  private warm(): Worker {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (this.worker) return this.worker;
    const worker = new Worker(workerUrl(), { smol: true });
    // An idle reader never keeps the process alive.
    (worker as unknown as { unref(): void }).unref();
    worker.onmessage = (event: MessageEvent<{ id: number; text: PageText | null }>) => {
      const done = this.pending.get(event.data.id);
      this.pending.delete(event.data.id);
      done?.(event.data.text);
      if (this.pending.size > 0) return;
      this.idle = setTimeout(() => this.stop(), IDLE_MS);
      this.idle.unref?.();
    };
    worker.onerror = () => this.stop();
    this.worker = worker;
    return worker;
  }

  /** Stops the worker; every page it held is answered without text. */
  stop(): void {
    this.worker?.terminate();
    this.worker = null;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const done of left) done(null);
  }
}
