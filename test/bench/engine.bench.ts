/**
 * Fan-out overhead of final processing: `bun run bench:engine`.
 *
 * Six fake models answer in 100..600 ms and the synthesis takes 300 ms, so the
 * ideal /process wall time is max(model latencies) + synthesis = 900 ms. We
 * measure the real /process (HTTP on 127.0.0.1, real SDKs, SQLite on disk in
 * WAL + synchronous=FULL) one at a time and 50 conversations at once, and
 * print median / ideal. Not a test: numbers depend on the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/lib/clock.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { spawnFakeProviders, UNMETERED } from "./bench.lib.ts";

const LATENCIES = { claudeHaiku: 100, gpt4: 200, geminiPro: 300, mistralLarge: 400, sonarPro: 500, claudeOpus: 600 } as const;
const SYNTHESIS_MS = 300;
const IDEAL_MS = Math.max(...Object.values(LATENCIES)) + SYNTHESIS_MS;
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const BATCH = 50;
const BATCH_RUNS = Number(process.env.BENCH_BATCH_RUNS ?? 20);

// The fakes run in their own process: their CPU is the providers', not the engine's.
const scripts = Object.fromEntries(Object.entries(LATENCIES).map(([m, latencyMs]) => [m, { latencyMs, synthesisLatencyMs: SYNTHESIS_MS }]));
const { env: fakeEnv, proc: fakeProc } = await spawnFakeProviders(scripts);

const dir = mkdtempSync(join(tmpdir(), "unisson-bench-"));
const t = await createTestApp({
  env: { ...fakeEnv, DATABASE_PATH: process.env.BENCH_DB ?? join(dir, "bench.db"), LOG_LEVEL: "error", AI_TIMEOUT_MS: "10000", ...UNMETERED },
  deps: { clock: systemClock },
});
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch });
const base = `http://127.0.0.1:${server.port}/api/unisson`;
const { token } = await makeUser(t.db, systemClock.now(), { subscriptionType: "pro", planQueries: 100_000 });
const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };

async function newConversation(i: number): Promise<number> {
  const res = await fetch(`${base}/chat`, {
    method: "POST",
    headers,
    body: JSON.stringify({ message: `Question de mesure numéro ${i} : quelle est la capitale de la France ?` }),
  });
  const body = (await res.json()) as { conversation_id: number; requires_final_processing: boolean };
  if (!body.requires_final_processing) throw new Error(`expected final processing: ${res.status} ${JSON.stringify(body)}`);
  return body.conversation_id;
}

async function timedProcess(id: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/process`, { method: "POST", headers, body: JSON.stringify({ conversation_id: id }) });
  await res.json();
  if (res.status !== 200) throw new Error(`process answered ${res.status}`);
  return performance.now() - started;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const ratio = (ms: number) => `${((ms / IDEAL_MS - 1) * 100).toFixed(2)} %`;

try {
  await timedProcess(await newConversation(-1)); // warm-up: JIT, SDK clients, SQLite pages

  const single: number[] = [];
  for (let i = 0; i < RUNS; i++) single.push(await timedProcess(await newConversation(i)));

  const perRequest: number[] = [];
  const batchWall: number[] = [];
  for (let b = 0; b < BATCH_RUNS; b++) {
    const ids = await Promise.all(Array.from({ length: BATCH }, (_, i) => newConversation(1000 * (b + 1) + i)));
    const cpu = process.cpuUsage();
    const started = performance.now();
    perRequest.push(...(await Promise.all(ids.map(timedProcess))));
    batchWall.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    if (process.env.BENCH_CPU) console.log(`batch cpu: ${((used.user + used.system) / 1000).toFixed(0)} ms`);
  }

  console.log(`ideal = max(model latencies) + synthesis = ${IDEAL_MS} ms`);
  console.log(`one at a time   (${RUNS} runs): median ${fmt(median(single))}, overhead ${ratio(median(single))}`);
  console.log(
    `${BATCH} at once (${BATCH_RUNS} batches): median per request ${fmt(median(perRequest))}, overhead ${ratio(median(perRequest))}; median batch wall ${fmt(median(batchWall))}, overhead ${ratio(median(batchWall))}`,
  );
} finally {
  server.stop(true);
  fakeProc.kill("SIGTERM");
  await fakeProc.exited;
  t.db.$client.close();
  rmSync(dir, { recursive: true, force: true });
}
