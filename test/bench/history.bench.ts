/**
 * A history of 10,000 conversations: `bun test/bench/history.bench.ts`
 * (part of `npm run bench`). Against the compiled executable on loopback:
 * the first page, a page deep in the history, a search for a common word and
 * for a rare one (p50/p99 response time, bytes on the wire with Brotli), and
 * in headless Chromium at 390x844 with the CPU slowed 4x, the history tab's
 * time from the click to its first conversations on screen.
 *
 * HISTORY_BASELINE_REF=<git ref> also builds that commit's executable (the
 * code before paging, e.g. the commit this work started from) and measures
 * its full list on the same database in the same run.
 */
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CHROMIUM, CHROMIUM_ARGS } from "../helpers/chromium.ts";
import { chromium } from "playwright-core";
import { toPublicUser } from "../../src/users/users.view.ts";
import { tempDir } from "../helpers/binary.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { seedHistory } from "../helpers/history-seed.ts";
import { fmt, median, ROOT, type Running, startServer, withDataDb } from "./bench.lib.ts";

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BASELINE = process.env.HISTORY_BASELINE_REF;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const dir = tempDir("unisson-bench-history-");
console.log(`seeding ${CONVERSATIONS} conversations for the user (and as many for 20 others)…`);
const seeded = await withDataDb(dir.path, async (db) => {
  for (let u = 0; u < 20; u++) await seedHistory(db, (await makeUser(db, new Date())).user.id, CONVERSATIONS / 20);
  const { user, token } = await makeUser(db, new Date());
  const ids = await seedHistory(db, user.id, CONVERSATIONS);
  db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
  return { token, publicUser: toPublicUser(user, new Date()), ids };
});

/** Sequential requests (after a warm-up): response time on loopback and the body's bytes as sent. */
async function measure(url: string, token: string): Promise<{ p50: number; p99: number; bytes: number; count: number }> {
  const headers = { authorization: `Bearer ${token}`, "accept-encoding": "br, gzip" };
  const times: number[] = [];
  let bytes = 0;
  let count = 0;
  for (let i = 0; i < REQUESTS + 20; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers, decompress: false } as RequestInit);
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    if (i >= 20) times.push(performance.now() - start);
    bytes = body.byteLength;
    if (i === 0) {
      const plain = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json();
      count = (plain as { conversations: unknown[] }).conversations.length;
    }
  }
  return { p50: median(times), p99: percentile(times, 99), bytes, count };
}

/** Click on the history tab to the first frame showing a conversation, at 4x CPU slowdown, RUNS cold loads. */
async function tabTimes(server: Running): Promise<{ ms: number[]; nodes: number[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const ms: number[] = [];
  const nodes: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "fr-FR" });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.evaluate(
        ([t, u]) => {
          localStorage.setItem("unisson_token", t!);
          localStorage.setItem("unisson_user", u!);
        },
        [seeded.token, JSON.stringify(seeded.publicUser)],
      );
      await page.reload();
      const tab = page.getByRole("tab", { name: "Historique" });
      await tab.waitFor();
      await page.waitForTimeout(500);
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      // Start and click inside the page: no CDP round trip in the figure.
      await page.evaluate(() => {
        const w = window as unknown as { __t0: number; __t1: number };
        w.__t1 = 0;
        new MutationObserver((_, obs) => {
          if (!document.querySelector(".history-item")) return;
          obs.disconnect();
          requestAnimationFrame(() => (w.__t1 = performance.now()));
        }).observe(document.body, { childList: true, subtree: true });
        w.__t0 = performance.now();
        (document.querySelector("#tab-history") as HTMLElement).click();
      });
      await page.waitForFunction(() => (window as unknown as { __t1: number }).__t1 > 0, undefined, { timeout: 60_000 });
      ms.push(await page.evaluate(() => (window as unknown as { __t1: number; __t0: number }).__t1 - (window as unknown as { __t0: number }).__t0));
      await page.waitForTimeout(300);
      nodes.push(await page.evaluate(() => document.getElementsByTagName("*").length));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { ms, nodes };
}

/** The baseline ref's executable, built from `git archive` beside this tree's node_modules. */
function buildBaseline(ref: string): string {
  const src = join(dir.path, "baseline-src");
  mkdirSync(src);
  const sh = (cmd: string) => {
    const r = Bun.spawnSync(["sh", "-c", cmd], { cwd: src, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`${cmd}: ${r.stderr.toString()}`);
  };
  sh(`git -C ${JSON.stringify(ROOT)} archive ${ref} | tar -x`);
  symlinkSync(join(ROOT, "node_modules"), join(src, "node_modules"));
  sh(`${process.execPath} scripts/build-web.ts && ${process.execPath} scripts/build-binary.ts ${join(dir.path, "baseline")}`);
  return join(dir.path, "baseline");
}

async function startBaseline(binary: string): Promise<Running> {
  const data = join(dir.path, "baseline-data");
  mkdirSync(data);
  copyFileSync(join(dir.path, "unisson.db"), join(data, "unisson.db"));
  return await startServer(data, { LOG_LEVEL: "warn" }, join(data, "server.log"), binary);
}

const rows: string[] = [];
const row = (what: string, m: Awaited<ReturnType<typeof measure>>) =>
  rows.push(`| ${what} | ${m.count} | ${fmt(m.p50, 1)} ms | ${fmt(m.p99, 1)} ms | ${fmt(m.bytes / 1024, 1)} KB |`);
const tabRows: string[] = [];
const tabRow = (what: string, t: { ms: number[]; nodes: number[] }) =>
  tabRows.push(`| ${what} | ${fmt(median(t.ms), 0)} ms | ${fmt(Math.min(...t.ms), 0)}–${fmt(Math.max(...t.ms), 0)} ms | ${fmt(median(t.nodes), 0)} |`);

const server = await startServer(dir.path, { LOG_LEVEL: "warn" });
try {
  const api = `${server.url}/api/unisson/history`;
  row("first page (no parameters: 50)", await measure(api, seeded.token));
  const deep = seeded.ids[Math.floor(CONVERSATIONS / 2)]!;
  const deepAt = await (await fetch(`${server.url}/api/unisson/conversation/${deep}`, { headers: { authorization: `Bearer ${seeded.token}` } })).json();
  const cursor = `${Date.parse((deepAt as { messages: Array<{ timestamp: string }> }).messages[0]!.timestamp)}.${deep}`;
  row(`a page of 100 in the middle (cursor)`, await measure(`${api}?limit=100&cursor=${cursor}`, seeded.token));
  row('search, common word ("jardin", 1 in 10)', await measure(`${api}?q=jardin`, seeded.token));
  row(
    "search, two words: the question's topic and a word of one answer",
    await measure(`${api}?q=${encodeURIComponent(`jardin réponse${Math.floor(CONVERSATIONS / 2)}`)}`, seeded.token),
  );
  row("search, rare word only in one answer", await measure(`${api}?q=${encodeURIComponent(`réponse${Math.floor(CONVERSATIONS / 3)}`)}`, seeded.token));
  tabRow("paged, virtualised list (this code)", await tabTimes(server));
} finally {
  await server.stop();
}

if (BASELINE) {
  console.log(`building ${BASELINE} for the baseline…`);
  const old = await startBaseline(buildBaseline(BASELINE));
  try {
    row(`full list of ${BASELINE} (every conversation, uncompressed)`, await measure(`${old.url}/api/unisson/history`, seeded.token));
    tabRow(`full list of ${BASELINE}`, await tabTimes(old));
  } finally {
    await old.stop();
  }
}
dir.cleanup();

console.log(
  `\nHistory of ${CONVERSATIONS} conversations (and ${CONVERSATIONS} of 20 other users), compiled executable on loopback, ${REQUESTS} sequential requests each, Accept-Encoding: br, gzip\n`,
);
console.log("| request | conversations answered | p50 | p99 | bytes sent |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\nHistory tab in headless Chromium, 390x844, CPU slowed 4x (CDP), ${RUNS} cold loads: click to the first conversation on screen\n`);
console.log("| list | median | range | DOM elements after opening |");
console.log("|---|---|---|---|");
for (const r of tabRows) console.log(r);
