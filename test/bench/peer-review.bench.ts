/**
 * What the council's peer review (« Délibération ») adds to an answer, in time
 * and in money: `bun test/bench/peer-review.bench.ts`.
 *
 * Six fake models (their own process) answer in 100..600 ms with an answer of
 * about 2,000 characters (≈ 500 tokens, a real answer's size), the synthesis
 * takes 300 ms; a ranking call takes the same latency as that model's answer
 * and writes the fakes' short evaluation and « CLASSEMENT : » line. The same
 * questions are answered with the review off, then on, one at a time through
 * HTTP (/process, real SDKs, SQLite on disk); we print the median wall time,
 * the median cost of an answer (result_data.cost_eur, the configured prices
 * applied to the tokens the fakes count) and the calls per answer. Not a
 * test: numbers depend on the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/lib/clock.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { setPeerReview } from "../server/chat/peer-review.helpers.ts";
import { spawnFakeProviders, UNMETERED } from "./bench.lib.ts";

const LATENCIES = { claudeHaiku: 100, gpt4: 200, geminiPro: 300, mistralLarge: 400, sonarPro: 500, claudeOpus: 600 } as const;
const SYNTHESIS_MS = 300;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ANSWER = `Paris est la capitale de la France depuis des siècles. ${"Elle concentre les institutions, l'économie et la culture du pays. ".repeat(30)}`;

const scripts = Object.fromEntries(Object.entries(LATENCIES).map(([m, latencyMs]) => [m, { latencyMs, synthesisLatencyMs: SYNTHESIS_MS, answer: ANSWER }]));
const { env: fakeEnv, proc: fakeProc } = await spawnFakeProviders(scripts);

const dir = mkdtempSync(join(tmpdir(), "unisson-bench-peer-"));
const t = await createTestApp({
  env: { ...fakeEnv, DATABASE_PATH: join(dir, "bench.db"), LOG_LEVEL: "error", AI_TIMEOUT_MS: "10000", ...UNMETERED },
  deps: { clock: systemClock },
});
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch });
const base = `http://127.0.0.1:${server.port}/api/unisson`;
const { token } = await makeUser(t.db, systemClock.now(), { subscriptionType: "pro", planQueries: 100_000 });
const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };

type Run = { ms: number; costEur: number; calls: number; reviewMs: number };

async function timedAnswer(i: number): Promise<Run> {
  const chat = await fetch(`${base}/chat`, {
    method: "POST",
    headers,
    body: JSON.stringify({ message: `Question de mesure ${i} : quelle est la capitale de la France ?` }),
  });
  const { conversation_id } = (await chat.json()) as { conversation_id: number };
  const started = performance.now();
  const res = await fetch(`${base}/process`, { method: "POST", headers, body: JSON.stringify({ conversation_id }) });
  const body = (await res.json()) as {
    message: { result_data: { cost_eur: number; peer_review?: { latency_ms: number; rankers: unknown[] }; models: unknown[] } };
  };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`process answered ${res.status}`);
  const data = body.message.result_data;
  return { ms, costEur: data.cost_eur, calls: data.models.length + 1 + (data.peer_review?.rankers.length ?? 0), reviewMs: data.peer_review?.latency_ms ?? 0 };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function series(on: boolean): Promise<Run[]> {
  await setPeerReview(t, on);
  await timedAnswer(-1); // warm-up: JIT, SDK clients, SQLite pages
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timedAnswer(i));
  return runs;
}

try {
  const off = await series(false);
  const on = await series(true);
  const line = (name: string, runs: Run[]) =>
    `${name}: median ${median(runs.map((r) => r.ms)).toFixed(0)} ms, ${median(runs.map((r) => r.costEur)).toFixed(5)} € per answer, ${median(runs.map((r) => r.calls))} calls`;
  console.log(`${RUNS} answers each, models ${Object.values(LATENCIES).join("/")} ms, synthesis ${SYNTHESIS_MS} ms`);
  console.log(line("peer review off", off));
  console.log(`${line("peer review on ", on)}, of which the review ${median(on.map((r) => r.reviewMs)).toFixed(0)} ms`);
  const extraMs = median(on.map((r) => r.ms)) - median(off.map((r) => r.ms));
  const costRatio = median(on.map((r) => r.costEur)) / median(off.map((r) => r.costEur));
  console.log(`extra: +${extraMs.toFixed(0)} ms per answer, cost × ${costRatio.toFixed(2)}`);
} finally {
  server.stop(true);
  fakeProc.kill("SIGTERM");
  await fakeProc.exited;
  t.db.$client.close();
  rmSync(dir, { recursive: true, force: true });
}
