/**
 * Hostile files against the compiled executable (issue 44):
 * `bun test/bench/hostile-files.bench.ts` (part of `npm run bench`).
 *
 * 1. Eight hostile uploads in a row by one trial account, the attack of the
 *    report: a 609 KB DOCX of about 200 MB of tiny paragraphs, eight times;
 *    then a mixed eight (that DOCX, a 46-byte WebP declaring 9,000 × 9,000,
 *    a PNG of 8,000 × 8,000 pixels, a PDF whose page inflates to 600 MB),
 *    two of each. Peak resident memory of the server alone, and of the
 *    server with its reader processes (summed from /proc every 20 ms).
 * 2. A small file's wait behind a hostile user: user A sends three slow PDFs
 *    (3,000 pages, all read) at once, user B then a one-page PDF; B's wait,
 *    with one reader and with the default pool.
 * 3. Sixty text files of 1 MB sent at once: /api/health's latency meanwhile
 *    (sampled every 50 ms), and the peak resident memory.
 * 4. The data export of an account holding thirty files of 10 MB, read as
 *    fast as the loopback allows (gzip, as browsers ask): /api/health meanwhile.
 * 0. (on demand) The same probe against an idle server: the box's own share.
 * Every figure is printed; docs/BENCHMARKS.md keeps them.
 */
import { readFileSync } from "node:fs";
import { inflatePdf, pixelBomb, textPdf, tinyParagraphsDocx, webpHeaderOnly } from "../helpers/attachment-files.ts";
import { tempDir } from "../helpers/binary.ts";
import { startServer, UNMETERED, withDataDb, seedUser } from "./bench.lib.ts";

const MiB = 1024 * 1024;

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The pids of the process's descendants (the readers run under prlimit, which execs them). */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function sampler(pid: number) {
  let server = 0;
  let total = 0;
  const timer = setInterval(() => {
    const own = rssOf(pid);
    server = Math.max(server, own);
    total = Math.max(total, own + descendants(pid).reduce((sum, c) => sum + rssOf(c), 0));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return { server, total };
    },
  };
}

/**
 * /api/health every 50 ms from a process of its own: measured from this one,
 * busy sending the uploads, the probe timed its own event loop, not the server.
 * Stops when its stdin closes, then prints its times.
 */
const PROBE = `
let on = true;
(async () => { for await (const _ of Bun.stdin.stream()) {} on = false; })();
const times = [];
while (on) {
  const s = performance.now();
  await fetch(process.env.HEALTH_URL + "/api/health").then((r) => r.arrayBuffer());
  times.push(performance.now() - s);
  await Bun.sleep(50);
}
console.log(JSON.stringify(times));
`;

function healthProbe(url: string) {
  const proc = Bun.spawn([process.execPath, "-e", PROBE], { env: { ...process.env, HEALTH_URL: url }, stdin: "pipe", stdout: "pipe" });
  return {
    async stop() {
      proc.stdin.end();
      const times = (JSON.parse(await new Response(proc.stdout).text()) as number[]).sort((a, b) => a - b);
      const at = (q: number) => times[Math.floor(times.length * q)] ?? 0;
      return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: times.at(-1) ?? 0, n: times.length };
    },
  };
}

async function upload(url: string, token: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
  const res = await fetch(`${url}/api/attachments`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { detail?: string };
  return { status: res.status, detail: body.detail ?? "" };
}

async function serverWith(env: Record<string, string>) {
  const dir = tempDir("unisson-hostile-");
  const users = await withDataDb(dir.path, async (db) => [await seedUser(db, { email: "a@example.fr" }), await seedUser(db, { email: "b@example.fr" })]);
  const server = await startServer(dir.path, { ...UNMETERED, LOG_LEVEL: "warn", ATTACHMENT_PAGES_PRO: "3000", ATTACHMENT_QUOTA_MB_TRIAL: "100000", ...env });
  return {
    server,
    users,
    async stop() {
      await server.stop();
      dir.cleanup();
    },
  };
}

async function inARow(label: string, files: Array<[Uint8Array, string]>) {
  const { server, users, stop } = await serverWith({});
  const idle = rssOf(server.pid);
  const memory = sampler(server.pid);
  const health = healthProbe(server.url);
  const started = performance.now();
  const answers: string[] = [];
  for (const [bytes, name] of files) {
    const r = await upload(server.url, users[0]!.token, bytes, name);
    answers.push(`${r.status}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = memory.stop();
  const h = await health.stop();
  console.log(
    `${label}: ${seconds.toFixed(1)} s, answers ${answers.join(" ")}; server RSS idle ${(idle / MiB).toFixed(0)} MiB, peak ${(peak.server / MiB).toFixed(0)} MiB; ` +
      `server + readers peak ${(peak.total / MiB).toFixed(0)} MiB; /api/health p50 ${h.p50.toFixed(1)} ms, p95 ${h.p95.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms (${h.n})`,
  );
  await stop();
}

async function smallBehindHostile(readers: string) {
  // The default time limit (20 s): what a slow file may hold a reader for.
  const { server, users, stop } = await serverWith({ ATTACHMENT_READERS: readers });
  const slow = await textPdf(3000);
  const small = await textPdf(1);
  const alone = performance.now();
  await upload(server.url, users[1]!.token, small, "seul.pdf");
  const aloneMs = performance.now() - alone;
  const hostileStarted = performance.now();
  const hostile = Promise.all([1, 2, 3].map((i) => upload(server.url, users[0]!.token, slow, `lent-${i}.pdf`)));
  await Bun.sleep(300);
  const started = performance.now();
  const r = await upload(server.url, users[1]!.token, small, "court.pdf");
  const waited = performance.now() - started;
  const theirs = (await hostile).map((h) => h.status).join(" ");
  console.log(
    `small PDF behind 3 × ${(slow.length / 1024).toFixed(0)} KB slow PDFs, ATTACHMENT_READERS=${readers}: ${r.status} in ${(waited / 1000).toFixed(2)} s ` +
      `(alone ${(aloneMs / 1000).toFixed(2)} s; the three slow ones: ${theirs} after ${((performance.now() - hostileStarted) / 1000).toFixed(1)} s)`,
  );
  await stop();
}

async function sixtyAtOnce() {
  const { server, users, stop } = await serverWith({ ATTACHMENT_MAX_MB: "20" });
  const text = new TextEncoder().encode("Le loyer est de 850 euros. ".repeat(Math.floor(MiB / 27)));
  const memory = sampler(server.pid);
  const health = healthProbe(server.url);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => upload(server.url, users[0]!.token, text, `t${i}.txt`).then((r) => r.status)));
  const seconds = (performance.now() - started) / 1000;
  const peak = memory.stop();
  const h = await health.stop();
  console.log(
    `60 × 1 MB text at once: ${seconds.toFixed(1)} s, ${statuses.filter((s) => s === 201).length} stored; server RSS peak ${(peak.server / MiB).toFixed(0)} MiB; ` +
      `/api/health p50 ${h.p50.toFixed(1)} ms, p95 ${h.p95.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms (${h.n})`,
  );
  await stop();
}

async function fastExport() {
  const dir = tempDir("unisson-hostile-export-");
  const { token } = await withDataDb(dir.path, async (db) => {
    const u = await seedUser(db, { email: "a@example.fr" });
    const insert = db.$client.prepare(
      "INSERT INTO attachments (user_id, name, kind, mime, size, data, created_at) VALUES (?, ?, 'pdf', 'application/pdf', ?, ?, ?)",
    );
    for (let i = 0; i < 30; i++) {
      const data = Buffer.from(crypto.getRandomValues(new Uint8Array(65536)))
        .toString("hex")
        .repeat(80)
        .slice(0, 10 * MiB);
      insert.run(u.userId, `f${i}.pdf`, data.length, Buffer.from(data), Date.now());
    }
    return u;
  });
  const server = await startServer(dir.path, { LOG_LEVEL: "warn" });
  const health = healthProbe(server.url);
  await Bun.sleep(300);
  const started = performance.now();
  const res = await fetch(`${server.url}/api/auth/export`, { headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" } });
  let bytes = 0;
  for await (const chunk of res.body!) bytes += chunk.byteLength;
  const seconds = (performance.now() - started) / 1000;
  const h = await health.stop();
  console.log(
    `export of 30 × 10 MB files: ${res.status}, ${(bytes / 1e6).toFixed(0)} MB (gzip) in ${seconds.toFixed(1)} s; /api/health p50 ${h.p50.toFixed(1)} ms, p95 ${h.p95.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms (${h.n})`,
  );
  await server.stop();
  dir.cleanup();
}

/**
 * Part 0: /api/health on an idle server, with the same probe, for as long as
 * part 3 or 4 lasts: on a shared box, the latency the box itself adds
 * (the probe and the server waiting for a core), below which no fix can go.
 */
async function idle(seconds: number) {
  const { server, stop } = await serverWith({});
  const health = healthProbe(server.url);
  await Bun.sleep(seconds * 1000);
  const h = await health.stop();
  console.log(
    `idle server, ${seconds} s: /api/health p50 ${h.p50.toFixed(1)} ms, p95 ${h.p95.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms (${h.n})`,
  );
  await stop();
}

// BENCH_HOSTILE_PARTS: which of the parts to run ("1,2,3,4" by default; 0 is the idle baseline).
const parts = new Set((process.env.BENCH_HOSTILE_PARTS ?? "1,2,3,4").split(","));
if (parts.has("0")) await idle(Number(process.env.BENCH_HOSTILE_IDLE_S ?? 10));
if (parts.has("1")) {
  const docx = await tinyParagraphsDocx(200);
  console.log(`DOCX: ${(docx.length / 1024).toFixed(0)} KB sent, 200 MB of XML`);
  await inARow(
    "8 × the DOCX in a row",
    Array.from({ length: 8 }, (_, i) => [docx, `bombe-${i}.docx`] as [Uint8Array, string]),
  );
  const mixed: Array<[Uint8Array, string]> = [
    [docx, "a.docx"],
    [webpHeaderOnly(9000), "b.webp"],
    [pixelBomb(8000), "c.png"],
    [inflatePdf(600), "d.pdf"],
  ];
  await inARow("8 mixed hostile files in a row", [...mixed, ...mixed]);
}
if (parts.has("2")) {
  await smallBehindHostile("1");
  await smallBehindHostile("0");
}
if (parts.has("3")) await sixtyAtOnce();
if (parts.has("4")) await fastExport();
