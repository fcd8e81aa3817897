/**
 * Lighthouse on the login and app screens: `bun test/bench/lighthouse.bench.ts`
 * (part of `npm run bench`). Against the compiled executable on loopback with
 * the fake AI providers, Debian's Chromium; mobile (Lighthouse's default: 412 px,
 * 4x CPU, simulated slow 4G) and desktop; median of LH_RUNS runs (3) of each.
 * The app screen runs with a stored session (localStorage kept, HTTP cache
 * cleared before each run). Then two user-flow timespans on the app screen:
 * asking a question (until "Analyse terminée") and opening the history.
 * Figures go in docs/BENCHMARKS.md; nothing asserted.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { startFlow } from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import puppeteer from "puppeteer-core";
import { startFakeProviders } from "../fakes/ai/index.ts";
import { tempDir } from "../helpers/binary.ts";
import { fmt, median, seedUser, startServer, withDataDb } from "./bench.lib.ts";

const RUNS = Number(process.env.LH_RUNS ?? 3);
const FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

type Span = { name: string; form: string; perf: number[]; cls: number[]; tbt: number[] };
const spans: Span[] = [];
type Row = {
  screen: string;
  form: string;
  perf: number[];
  a11y: number[];
  bp: number[];
  seo: number[];
  lcp: number[];
  cls: number[];
  tbt: number[];
  unusedJs: number[];
};

const fakes = startFakeProviders();
const dir = tempDir("unisson-bench-lh-");
const server = await startServer(dir.path, { LOG_LEVEL: "warn", ...fakes.env });
const { token } = await withDataDb(dir.path, async (db) => await seedUser(db, { firstName: "Camille", subscriptionType: "pro", planQueries: 100 }));
const me = await (await fetch(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).json();
const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: [...FLAGS, `--user-data-dir=${dir.path}/chrome`] });
const rows: Row[] = [];
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  // LH_ONLY=flows skips the page loads (and LH_ONLY=loads the timespans).
  for (const screen of process.env.LH_ONLY === "flows" ? [] : (["login", "app"] as const)) {
    for (const form of ["mobile", "desktop"] as const) {
      const row: Row = { screen, form, perf: [], a11y: [], bp: [], seo: [], lcp: [], cls: [], tbt: [], unusedJs: [] };
      for (let i = 0; i < RUNS; i++) {
        const page = await browser.newPage();
        await page.goto(`${server.url}/robots-check-not-needed`, { waitUntil: "domcontentloaded" }).catch(() => {});
        await page.evaluate(
          (signedIn, t, u) => {
            localStorage.clear();
            if (signedIn) {
              localStorage.setItem("unisson_token", t);
              localStorage.setItem("unisson_user", JSON.stringify(u));
            }
          },
          screen === "app",
          token,
          me,
        );
        const cdp = await page.createCDPSession();
        await cdp.send("Network.clearBrowserCache");
        await page.close();
        const result = await lighthouse(
          `${server.url}/`,
          { port: chrome.port, output: "json", logLevel: "error", disableStorageReset: screen === "app" },
          form === "desktop" ? desktopConfig : undefined,
        );
        const lhr = result!.lhr;
        if (lhr.runtimeError) {
          // A failed run (Chromium under load sometimes paints nothing in time) is retried, not counted.
          console.warn(`${screen} ${form}: run failed (${lhr.runtimeError.code}), retried`);
          i--;
          continue;
        }
        const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
        if (process.env.LH_DEBUG) {
          const el = lhr.audits["largest-contentful-paint-element"]?.details as { items?: { items?: unknown[] }[] } | undefined;
          console.log(
            JSON.stringify(
              el?.items?.map((x) => x.items),
              null,
              0,
            ).slice(0, 1500),
          );
          console.log(
            JSON.stringify(
              (
                lhr.audits["network-requests"]?.details as unknown as
                  | { items: { url: string; networkRequestTime: number; networkEndTime: number; transferSize: number }[] }
                  | undefined
              )?.items.map((r) => [r.url.replace(server.url, ""), Math.round(r.networkRequestTime), Math.round(r.networkEndTime), r.transferSize]),
            ),
          );
        }
        row.perf.push(score("performance"));
        row.a11y.push(score("accessibility"));
        row.bp.push(score("best-practices"));
        row.seo.push(score("seo"));
        row.lcp.push(lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN);
        row.cls.push(lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN);
        row.tbt.push(lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN);
        row.unusedJs.push(((lhr.audits["unused-javascript"]?.details as { overallSavingsBytes?: number } | undefined)?.overallSavingsBytes ?? 0) / 1024);
      }
      rows.push(row);
      console.log(
        `${screen} ${form}: perf ${row.perf.join("/")}, LCP ${row.lcp.map((x) => fmt(x / 1000, 2)).join("/")} s, CLS ${row.cls.map((x) => fmt(x, 3)).join("/")}`,
      );
    }
  }
  for (const form of process.env.LH_ONLY === "loads" ? [] : (["mobile", "desktop"] as const)) {
    const ask: Span = { name: "ask a question", form, perf: [], cls: [], tbt: [] };
    const open: Span = { name: "open the history", form, perf: [], cls: [], tbt: [] };
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage();
      await page.setViewport(form === "mobile" ? { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true } : { width: 1350, height: 940 });
      await page.goto(`${server.url}/`);
      await page.evaluate(
        (t, u) => {
          localStorage.setItem("unisson_token", t);
          localStorage.setItem("unisson_user", JSON.stringify(u));
        },
        token,
        me,
      );
      await page.goto(`${server.url}/`);
      await page.waitForSelector("#question");
      const flow = await startFlow(page, { config: form === "desktop" ? desktopConfig : undefined, flags: { screenEmulation: { disabled: true } } });
      const waitText = (text: string) => page.waitForFunction((x) => document.body.innerText.includes(x), { timeout: 60_000 }, text);
      await flow.startTimespan({ name: "ask" });
      await page.type("#question", "Quelle est la capitale de la France ?");
      await page.click(".composer.large button[type=submit]");
      await waitText("Analyse terminée");
      await flow.endTimespan();
      await flow.startTimespan({ name: "history" });
      await page.click("#tab-history");
      await page.waitForSelector(".history-item");
      await flow.endTimespan();
      const result = await flow.createFlowResult();
      for (const [span, step] of [
        [ask, result.steps[0]!],
        [open, result.steps[1]!],
      ] as const) {
        span.perf.push(Math.round((step.lhr.categories.performance?.score ?? 0) * 100));
        span.cls.push(step.lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN);
        span.tbt.push(step.lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN);
      }
      await page.close();
    }
    spans.push(ask, open);
    console.log(
      `timespans ${form}: ask perf ${ask.perf.join("/")} CLS ${ask.cls.map((x) => fmt(x, 3)).join("/")} TBT ${ask.tbt.map((x) => fmt(x, 0)).join("/")}; history perf ${open.perf.join("/")} CLS ${open.cls.map((x) => fmt(x, 3)).join("/")} TBT ${open.tbt.map((x) => fmt(x, 0)).join("/")}`,
    );
  }
  await browser.disconnect();
} finally {
  await chrome.kill();
  await server.stop();
  await fakes.stop();
  dir.cleanup();
}

console.log(`\nLighthouse ${RUNS} runs each, medians (Debian Chromium, loopback, fake providers)`);
console.log("| screen | form | performance | accessibility | best practices | SEO | LCP | CLS | TBT | unused JS |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.screen} | ${r.form} | ${median(r.perf)} | ${median(r.a11y)} | ${median(r.bp)} | ${median(r.seo)} | ${fmt(median(r.lcp) / 1000, 2)} s | ${fmt(median(r.cls), 3)} | ${fmt(median(r.tbt), 0)} ms | ${fmt(median(r.unusedJs), 1)} KiB |`,
  );
}

console.log("\n| user flow (timespan) | form | performance | CLS | TBT |");
console.log("|---|---|---|---|---|");
for (const t of spans) console.log(`| ${t.name} | ${t.form} | ${median(t.perf)} | ${fmt(median(t.cls), 3)} | ${fmt(median(t.tbt), 0)} ms |`);
