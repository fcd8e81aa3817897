/**
 * What web search adds before the first model text: `bun test/bench/web-search.bench.ts`.
 *
 * Six fake models whose first token comes 600 ms after they are asked; a
 * fake SearXNG and five fake article pages on the loopback
 * (WEB_FETCH_ALLOW_PRIVATE=true), each page about 12 KB of HTML. Measured
 * over BENCH_RUNS runs (default 5), from POST /process (SSE) to the first
 * model text (`model_delta`), with web search off, then on: the search and
 * the pages answering at once (the server's own cost: resolution, fetches,
 * Readability, the sources block), then with 300 ms for the search and 400 ms
 * for each page (a plausible public-web latency; the pages are read in
 * parallel). Each run reads new URLs, so the page cache never answers.
 * Also: Readability on one large page (about 500 KB of HTML), on the main
 * thread and in the product's worker, with the longest the main thread was
 * held meanwhile.
 * Not a test: the numbers depend on the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/lib/clock.ts";
import { PageReader } from "../../src/web-search/page-reader.ts";
import { mainText } from "../../src/web-search/page-text.ts";
import { FakePages } from "../fakes/web/pages.ts";
import { FakeSearxng } from "../fakes/web/searxng.fake.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { readSse } from "../helpers/sse.ts";
import { fmt, median, spawnFakeProviders, UNMETERED } from "./bench.lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const scripts = Object.fromEntries(
  ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro", "mistralLarge", "sonarPro"].map((m) => [m, { latencyMs: 600, durationMs: 400 }]),
);
const s = (ms: number) => `${fmt(ms / 1000, 2)} s`;

const { env: fakeEnv, proc } = await spawnFakeProviders(scripts);
const searx = new FakeSearxng();
const pages = new FakePages();
const dir = mkdtempSync(join(tmpdir(), "unisson-web-bench-"));
let round = 0;
searx.results = () => {
  round += 1;
  return Array.from({ length: 5 }, (_, k) => ({ url: pages.url(`/article/r${round}-${k}`), title: `Article ${round}-${k}`, content: "Extrait." }));
};
try {
  const t = await createTestApp({
    env: {
      ...fakeEnv,
      ...UNMETERED,
      DATABASE_PATH: join(dir, "bench.db"),
      LOG_LEVEL: "error",
      AI_TIMEOUT_MS: "60000",
      WEB_SEARCH_URL: searx.url,
      WEB_FETCH_ALLOW_PRIVATE: "true",
    },
    deps: { clock: systemClock },
  });
  const srv = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch, idleTimeout: 0 });
  const { token } = await makeUser(t.db, systemClock.now(), { subscriptionType: "pro", planQueries: 100_000 });
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const base = `http://127.0.0.1:${srv.port}/api/unisson`;

  /** Asks once; the time from POST /process to the web sources and to the first model text. */
  async function once(web: boolean, i: number) {
    const chat = (await (
      await fetch(`${base}/chat`, {
        method: "POST",
        headers,
        body: JSON.stringify({ message: `Question de mesure ${i} : quelles sont les nouvelles du jour ?`, web_search: web }),
      })
    ).json()) as {
      conversation_id: number;
    };
    const asked = performance.now();
    const res = await fetch(`${base}/process`, {
      method: "POST",
      headers: { ...headers, accept: "text/event-stream" },
      body: JSON.stringify({ conversation_id: chat.conversation_id }),
    });
    let sources = Number.NaN;
    let first = Number.NaN;
    await readSse(res, {
      stopAfter: (e) => {
        const at = performance.now() - asked;
        if (e.event === "web_sources") sources = at;
        if (e.event === "model_delta" && Number.isNaN(first)) first = at;
        return false;
      },
    });
    return { sources, first };
  }

  async function series(label: string, web: boolean) {
    await once(web, -1); // warm-up: the SDKs' and Readability's code loaded once
    const rows = [];
    for (let i = 0; i < RUNS; i++) rows.push(await once(web, i));
    const first = median(rows.map((r) => r.first));
    const sources = web ? `, sources prêtes à ${s(median(rows.map((r) => r.sources)))}` : "";
    console.log(`${label} (médiane de ${RUNS}) : 1er texte d'un modèle à ${s(first)}${sources}`);
    return first;
  }

  const off = await series("sans recherche web", false);
  const local = await series("recherche web, moteur et pages sans délai", true);
  searx.delayMs = 300;
  pages.delayMs = 400;
  const distant = await series("recherche web, moteur 300 ms, pages 400 ms", true);
  console.log(`ajouté avant le 1er texte : ${s(local - off)} (coût propre du serveur), ${s(distant - off)} (avec les délais du réseau simulés)`);
  srv.stop(true);

  const paragraph = `<p>${"Un paragraphe d'article de presse, avec des chiffres, des dates et des noms propres. ".repeat(20)}</p>`;
  const big = `<html><head><title>Grande page</title></head><body><nav>${"<a href='/'>lien</a> ".repeat(2000)}</nav><article>${paragraph.repeat(300)}</article></body></html>`;
  /** The time to read the big page, and the longest the main thread was held meanwhile (a 10 ms timer's worst lateness). */
  async function measure(read: () => Promise<unknown>) {
    let last = performance.now();
    let worst = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last - 10);
      last = now;
    }, 10);
    const at = performance.now();
    await read();
    const took = performance.now() - at;
    clearInterval(tick);
    return { took, worst };
  }
  const reader = new PageReader();
  const job = { html: big, contentType: "text/html", url: "https://exemple.fr/grande" };
  for (const [label, read] of [
    ["sur le fil principal", () => mainText(job.html, job.contentType, job.url)],
    ["dans un worker (le produit)", () => reader.read(job, AbortSignal.timeout(60_000))],
  ] as const) {
    const rows = [];
    for (let i = 0; i < RUNS; i++) rows.push(await measure(read));
    console.log(
      `Readability sur une page de ${Math.round(big.length / 1024)} Ko, ${label} (médiane de ${RUNS}) : ${fmt(median(rows.map((r) => r.took)), 0)} ms, fil principal retenu au plus ${fmt(median(rows.map((r) => r.worst)), 0)} ms`,
    );
  }
} finally {
  proc.kill();
  await searx.stop();
  await pages.stop();
  rmSync(dir, { recursive: true, force: true });
}
