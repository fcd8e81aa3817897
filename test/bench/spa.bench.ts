/**
 * The login screen in headless Chromium: `bun test/bench/spa.bench.ts`
 * (part of `npm run bench`). Against the compiled executable on loopback,
 * BENCH_RUNS cold loads (fresh browser context, empty cache): the gzip size
 * of every JavaScript file the page loads (budget 150 KB), first contentful
 * paint, largest contentful paint and the moment the login form is on screen.
 */
import { CHROMIUM, CHROMIUM_ARGS } from "../helpers/chromium.ts";
import { chromium } from "playwright-core";
import { tempDir } from "../helpers/binary.ts";
import { fmt, median, startServer } from "./bench.lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const dir = tempDir("unisson-bench-spa-");
const server = await startServer(dir.path, { LOG_LEVEL: "warn" });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const fcp: number[] = [];
const lcp: number[] = [];
const form: number[] = [];
let scripts: Array<{ url: string; raw: number; gzip: number }> = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "fr-FR" });
    const page = await context.newPage();
    const seen: Array<Promise<{ url: string; raw: number; gzip: number }>> = [];
    page.on("response", (res) => {
      if (res.request().resourceType() === "script")
        seen.push(res.body().then((b) => ({ url: new URL(res.url()).pathname, raw: b.length, gzip: Bun.gzipSync(new Uint8Array(b), { level: 9 }).length })));
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number; __form: number };
      w.__lcp = 0;
      w.__form = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__lcp = e.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
      // The login form is on screen at the first frame after its password field exists.
      new MutationObserver((_, obs) => {
        if (!document.querySelector("input[type=password]")) return;
        obs.disconnect();
        requestAnimationFrame(() => (w.__form = performance.now()));
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.url);
    await page.getByRole("heading", { name: "Connexion" }).waitFor();
    await page.waitForFunction(() => (window as unknown as { __form: number }).__form > 0);
    const shown = await page.evaluate(() => (window as unknown as { __form: number }).__form);
    const paint = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN);
    await page.waitForTimeout(200);
    lcp.push(await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp));
    fcp.push(paint);
    form.push(shown);
    scripts = await Promise.all(seen);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  dir.cleanup();
}

const gz = scripts.reduce((n, s) => n + s.gzip, 0);
const raw = scripts.reduce((n, s) => n + s.raw, 0);
console.log(`\nLogin screen in headless Chromium (compiled executable on loopback), ${RUNS} cold loads\n`);
console.log("| JavaScript file | size | gzip -9 |");
console.log("|---|---|---|");
for (const s of scripts) console.log(`| ${s.url} | ${fmt(s.raw / 1024)} KB | ${fmt(s.gzip / 1024)} KB |`);
console.log(`| **total** | ${fmt(raw / 1024)} KB | **${fmt(gz / 1024)} KB** (budget 150 KB: ${gz <= 150 * 1024 ? "met" : "MISSED"}) |`);
console.log("\n| paint | median | min | max |");
console.log("|---|---|---|---|");
for (const [name, xs] of [
  ["first contentful paint", fcp],
  ["largest contentful paint", lcp],
  ["login form on screen", form],
] as const) {
  console.log(`| ${name} | ${fmt(median(xs), 0)} ms | ${fmt(Math.min(...xs), 0)} ms | ${fmt(Math.max(...xs), 0)} ms |`);
}
