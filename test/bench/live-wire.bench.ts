/**
 * What a live answer costs on the wire and in the server's CPU (issue 46):
 * `bun test/bench/live-wire.bench.ts` (part of `npm run bench`). Not a test:
 * the numbers depend on the machine.
 *
 * The compiled executable on SQLite, the fake providers in processes of
 * their own (their CPU is not the server's). BENCH_WORKERS users ask one
 * question after another (POST /chat, then POST /process), in interleaved
 * rounds of BENCH_ANSWERS answers per worker and per cell:
 * - `short, JSON`: the answers of docs/SCALING.md's 7.3 ms (scaling.bench:
 *   one sentence per model in 12 pieces, at once), the JSON /process;
 * - `real, JSON`: real-length answers (about 2,500 characters per model and
 *   for the synthesis) written in 120 pieces over 3 s, the JSON /process;
 * - `real, live`: the same followed live (Accept: text/event-stream) by a
 *   client that does not send Accept-Encoding: the wire of 576edfd;
 * - `real, live gzip`: the same with Accept-Encoding: gzip (browsers send it);
 * - with BENCH_BEFORE_BINARY (an executable built from an older commit, e.g.
 *   576edfd: `git archive 576edfd | tar -x -C <dir>`, node_modules linked,
 *   `bun scripts/build-web.ts && bun scripts/build-binary.ts <file>`), the
 *   same live answer from that executable, side by side (`real, live, before`;
 *   it sends Accept-Encoding: gzip, which that version ignored).
 * The live answers are read by curl without decoding (`size_download` is
 * what crossed the wire), then decoded to count the events. Prints, per
 * cell, the medians over rounds of: server CPU per answer (utime + stime
 * from /proc, /chat included), bytes and events per answer.
 */
import { loadavg } from "node:os";
import { tempDir } from "../helpers/binary.ts";
import { cpuMicros, fmt, median, type Running, seedUser, spawnFakeProviders, startServer, UNMETERED, withDataDb } from "./bench.lib.ts";

const WORKERS = Number(process.env.BENCH_WORKERS ?? 6);
const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODELS = ["claudeHaiku", "gpt4", "geminiPro", "mistralLarge", "sonarPro", "claudeOpus"];
const LOAD_BEFORE = loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");

/** About 2,500 characters of French prose, different for each model. */
function realAnswer(seed: number): string {
  const words =
    "la capitale de la France est Paris depuis le Moyen Âge et les rois capétiens ont fait de cette ville le centre du pouvoir politique économique et culturel du royaume puis de la République".split(
      " ",
    );
  let x = seed;
  const next = () => {
    x = (x * 16807) % 2147483647;
    return x;
  };
  const out: string[] = [];
  while (out.join(" ").length < 2500) out.push(words[next() % words.length]!);
  return `${out.join(" ")}.`;
}

const SYNTHESIS = [
  "## Réponse consolidée",
  realAnswer(7).slice(0, 1500),
  "## Points de consensus",
  realAnswer(11).slice(0, 600),
  "## Divergences",
  realAnswer(13).slice(0, 400),
].join("\n");
const realScripts = Object.fromEntries(
  MODELS.map((m, i) => [
    m,
    { latencyMs: 200, durationMs: 3000, pieces: 120, answer: realAnswer(i + 1), synthesisAnswer: SYNTHESIS, synthesisDurationMs: 3000 },
  ]),
);
const shortScripts = Object.fromEntries(MODELS.map((m) => [m, { latencyMs: 5, synthesisLatencyMs: 5 }]));

const BEFORE = process.env.BENCH_BEFORE_BINARY;
type Mode = { name: string; server: "short" | "real" | "before"; live: boolean; gzip: boolean };
const MODES: Mode[] = [
  { name: "short, JSON", server: "short", live: false, gzip: false },
  { name: "real, JSON", server: "real", live: false, gzip: false },
  ...(BEFORE ? [{ name: "real, live, before", server: "before", live: true, gzip: true } as const] : []),
  { name: "real, live", server: "real", live: true, gzip: false },
  { name: "real, live gzip", server: "real", live: true, gzip: true },
];
type Sample = { cpuMs: number; bytes: number; events: number };

async function post(url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The live answer through curl, undecoded: its size on the wire and its events. */
async function liveAnswer(url: string, token: string, id: number, gzip: boolean): Promise<{ bytes: number; events: number }> {
  const args = [
    "curl",
    "-sS",
    "-N",
    "-X",
    "POST",
    "-H",
    `authorization: Bearer ${token}`,
    "-H",
    "content-type: application/json",
    "-H",
    "accept: text/event-stream",
  ];
  if (gzip) args.push("-H", "accept-encoding: gzip");
  args.push("--data", JSON.stringify({ conversation_id: id }), `${url}/api/unisson/process`);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
  const raw = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
  if ((await proc.exited) !== 0) throw new Error("curl failed");
  const text = new TextDecoder().decode(gzip && raw[0] === 0x1f && raw[1] === 0x8b ? Bun.gunzipSync(raw) : raw);
  if (!text.includes("event: final")) throw new Error(`no final event: ${text.slice(-300)}`);
  return { bytes: raw.length, events: text.split("\n\n").filter((b) => b.startsWith("id: ") || b.startsWith("event: ")).length };
}

async function cell(server: Running, tokens: string[], mode: Mode): Promise<Sample> {
  const cpu0 = cpuMicros(server.pid);
  let bytes = 0;
  let events = 0;
  await Promise.all(
    tokens.map(async (token, w) => {
      for (let n = 0; n < ANSWERS; n++) {
        const chat = await post(`${server.url}/api/unisson/chat`, token, { message: `Question ${w}-${n} : quelle est la capitale de la France ?` });
        const id = chat.conversation_id as number;
        if (mode.live) {
          const got = await liveAnswer(server.url, token, id, mode.gzip);
          bytes += got.bytes;
          events += got.events;
        } else {
          const res = await fetch(`${server.url}/api/unisson/process`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "accept-encoding": "identity" },
            body: JSON.stringify({ conversation_id: id }),
          });
          const body = new Uint8Array(await res.arrayBuffer());
          if (res.status !== 200) throw new Error(`process: ${res.status}`);
          bytes += body.length;
          events += 1;
        }
      }
    }),
  );
  const answers = tokens.length * ANSWERS;
  return { cpuMs: (cpuMicros(server.pid) - cpu0) / 1000 / answers, bytes: bytes / answers, events: events / answers };
}

async function setUp(fakes: Awaited<ReturnType<typeof spawnFakeProviders>>, binary?: string) {
  const dir = tempDir("unisson-bench-wire-");
  const tokens = await withDataDb(dir.path, async (db) => {
    const out: string[] = [];
    for (let i = 0; i < WORKERS; i++) out.push((await seedUser(db, { subscriptionType: "pro", planQueries: 1_000_000 })).token);
    return out;
  });
  const server = await startServer(dir.path, { ...fakes.env, ...UNMETERED, LOG_LEVEL: "warn", AI_TIMEOUT_MS: "30000" }, undefined, binary);
  return { dir, tokens, server };
}

const shortFakes = await spawnFakeProviders(shortScripts);
const realFakes = await spawnFakeProviders(realScripts);
const setups = {
  short: await setUp(shortFakes),
  real: await setUp(realFakes),
  ...(BEFORE ? { before: await setUp(realFakes, BEFORE) } : {}),
} as Record<Mode["server"], Awaited<ReturnType<typeof setUp>>>;
try {
  const samples = new Map<string, Sample[]>(MODES.map((m) => [m.name, []]));
  // A warm-up answer of each kind, not counted.
  for (const mode of MODES) await cell(setups[mode.server].server, [setups[mode.server].tokens[0]!], mode);
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) samples.get(mode.name)!.push(await cell(setups[mode.server].server, setups[mode.server].tokens, mode));
  }
  console.log(
    `live answers on the wire: ${WORKERS} workers x ${ANSWERS} answers x ${ROUNDS} rounds; load before ${LOAD_BEFORE}, after ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log("| answer | server CPU per answer (median, min-max) | bytes per answer | events per answer |");
  console.log("|---|---|---|---|");
  for (const mode of MODES) {
    const s = samples.get(mode.name)!;
    const cpu = s.map((x) => x.cpuMs);
    console.log(
      `| ${mode.name} | ${fmt(median(cpu))} ms (${fmt(Math.min(...cpu))}-${fmt(Math.max(...cpu))}) | ${Math.round(median(s.map((x) => x.bytes)))} | ${fmt(median(s.map((x) => x.events)), 0)} |`,
    );
  }
} finally {
  for (const s of Object.values(setups)) {
    await s.server.stop();
    s.dir.cleanup();
  }
  for (const f of [shortFakes, realFakes]) f.proc.kill("SIGTERM");
}
