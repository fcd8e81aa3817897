/**
 * Soft deadline against wait-for-all: `bun test/bench/live.bench.ts`.
 *
 * Six fake models stream their answers in 2, 4, 6, 8, 12 and 45 s, the
 * synthesis has a 1 s first token and takes 8 s in all; AI_SOFT_DEADLINE_MS
 * is 20 s. All times are scaled by BENCH_SCALE (default 0.1, so a run takes
 * seconds, not minutes; the figures are printed scaled back). The same
 * process runs two servers on the same fakes: one with the soft deadline,
 * one that waits for every model (the soft deadline set to AI_TIMEOUT_MS),
 * interleaved. It measures, median of BENCH_RUNS runs, click -> first
 * synthesis text and click -> complete answer, over HTTP with the SSE stream
 * of POST /process. Then 50 runs at once, three times: server CPU per run
 * and memory. Not a test: numbers depend on the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/lib/clock.ts";
import { createTestApp } from "../helpers/app.ts";
import { makeUser } from "../helpers/fixtures.ts";
import { readSse } from "../helpers/sse.ts";
import { spawnFakeProviders, UNMETERED } from "./bench.lib.ts";

const SCALE = Number(process.env.BENCH_SCALE ?? 0.1);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const BATCH = 50;
const S = (seconds: number) => Math.round(seconds * 1000 * SCALE);
const ANSWER_S = { claudeHaiku: 2, gpt4: 4, geminiPro: 6, mistralLarge: 8, sonarPro: 12, claudeOpus: 45 } as const;
const SOFT_S = 20;
const TIMEOUT_S = 90;

// A streamed answer "in N s": first token at a fifth of it, the rest spread over the remainder.
const scripts = Object.fromEntries(
  Object.entries(ANSWER_S).map(([m, s]) => [m, { latencyMs: S(s / 5), durationMs: S((s * 4) / 5), synthesisLatencyMs: S(1), synthesisDurationMs: S(7) }]),
);
const { env: fakeEnv, proc: fakeProc } = await spawnFakeProviders(scripts);

const dir = mkdtempSync(join(tmpdir(), "unisson-live-bench-"));
async function server(name: string, softMs: number) {
  const env = {
    ...fakeEnv,
    ...UNMETERED,
    DATABASE_PATH: join(dir, `${name}.db`),
    LOG_LEVEL: "error",
    AI_TIMEOUT_MS: String(S(TIMEOUT_S)),
    AI_BUDGET_MS: String(S(120)),
    AI_SOFT_DEADLINE_MS: String(softMs),
  };
  const t = await createTestApp({ env, deps: { clock: systemClock } });
  const srv = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch, idleTimeout: 0 });
  const { token } = await makeUser(t.db, systemClock.now(), { subscriptionType: "pro", planQueries: 100_000 });
  return { t, srv, base: `http://127.0.0.1:${srv.port}/api/unisson`, headers: { "content-type": "application/json", authorization: `Bearer ${token}` } };
}
type Server = Awaited<ReturnType<typeof server>>;

async function ask(s: Server, i: number): Promise<number> {
  const res = await fetch(`${s.base}/chat`, {
    method: "POST",
    headers: s.headers,
    body: JSON.stringify({ message: `Question de mesure numéro ${i} : quelle est la capitale de la France ?` }),
  });
  return ((await res.json()) as { conversation_id: number }).conversation_id;
}

/** Click -> first synthesis text, click -> final event (ms, unscaled). */
async function run(s: Server, id: number): Promise<{ first: number; done: number }> {
  const started = performance.now();
  let first = 0;
  const res = await fetch(`${s.base}/process`, {
    method: "POST",
    headers: { ...s.headers, accept: "text/event-stream" },
    body: JSON.stringify({ conversation_id: id }),
  });
  const { events } = await readSse(res, {
    stopAfter: (e) => {
      if (e.event === "synthesis_delta" && !first) first = performance.now() - started;
      return false;
    },
  });
  if (events.at(-1)?.event !== "final") throw new Error(`run ended with ${events.at(-1)?.event}`);
  return { first, done: performance.now() - started };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sec = (ms: number) => `${(ms / SCALE / 1000).toFixed(2)} s`;

const soft = await server("soft", S(SOFT_S));
const waitAll = await server("wait", S(TIMEOUT_S));
try {
  await run(soft, await ask(soft, -1));
  await run(waitAll, await ask(waitAll, -1));
  const r: Record<"soft" | "wait", Array<{ first: number; done: number }>> = { soft: [], wait: [] };
  for (let i = 0; i < RUNS; i++) {
    r.soft.push(await run(soft, await ask(soft, i)));
    r.wait.push(await run(waitAll, await ask(waitAll, i)));
  }
  console.log(
    `scale ${SCALE} (figures scaled back to real seconds); models ${Object.values(ANSWER_S).join(", ")} s; synthesis 1 s first token, 8 s in all; soft deadline ${SOFT_S} s; ${RUNS} runs each`,
  );
  for (const [name, list] of Object.entries(r)) {
    console.log(
      `${name === "soft" ? "soft deadline  " : "wait for all   "}: first synthesis text ${sec(median(list.map((x) => x.first)))}, complete answer ${sec(median(list.map((x) => x.done)))}`,
    );
  }

  for (let b = 0; b < 3; b++) {
    const ids = await Promise.all(Array.from({ length: BATCH }, (_, i) => ask(soft, 1000 * (b + 1) + i)));
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const results = await Promise.all(ids.map((id) => run(soft, id)));
    const used = process.cpuUsage(cpu);
    Bun.gc(true);
    console.log(
      `${BATCH} at once, batch ${b + 1}: median complete ${sec(median(results.map((x) => x.done)))}, wall ${sec(performance.now() - started)}, server+client CPU ${((used.user + used.system) / 1000 / BATCH).toFixed(1)} ms per run, RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
  }
} finally {
  soft.srv.stop(true);
  waitAll.srv.stop(true);
  fakeProc.kill("SIGTERM");
  await fakeProc.exited;
  soft.t.db.$client.close();
  waitAll.t.db.$client.close();
  rmSync(dir, { recursive: true, force: true });
}
