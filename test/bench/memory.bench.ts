/**
 * Resident memory under 10 minutes of mixed load: `bun test/bench/memory.bench.ts`
 * (part of `npm run bench`; BENCH_MEMORY_MINUTES to shorten). The compiled
 * executable serves reads (wrk, 16 connections, rotating /api/auth/me,
 * /api/unisson/history, /api/unisson/status and /) while 4 clients register,
 * chat and get final answers from the fake providers (their own process).
 * Prints RSS each minute and the growth between the 5th and the last minute.
 */
import { join } from "node:path";
import { tempDir } from "../helpers/binary.ts";
import { fmt, requireWrk, rssMiB, seedConversations, seedUser, spawnFakeProviders, startServer, withDataDb, wrk } from "./bench.lib.ts";

const MINUTES = Number(process.env.BENCH_MEMORY_MINUTES ?? 10);
requireWrk();

const { env: fakeEnv, proc: fakes } = await spawnFakeProviders({});

const dir = tempDir("unisson-bench-mem-");
const { token } = await withDataDb(dir.path, async (db) => {
  const u = await seedUser(db, { subscriptionType: "pro" });
  seedConversations(db, u.userId, 200, new Date());
  return u;
});
const script = join(dir.path, "mixed.lua");
await Bun.write(
  script,
  `local paths = {"/api/auth/me", "/api/unisson/history", "/api/unisson/status", "/"}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1], {["Authorization"] = "Bearer ${token}"})
end
`,
);

const server = await startServer(dir.path, { ...fakeEnv, LOG_LEVEL: "info", AI_TIMEOUT_MS: "10000" });
const deadline = Date.now() + MINUTES * 60_000;
let writes = 0;
let failures = 0;
let seq = 0;

async function post(path: string, json: unknown, bearer?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": `10.${seq % 250}.${Math.floor(seq / 250) % 250}.3`,
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Registers, then asks questions (chat + final processing) until its requests run out; again until the deadline. */
async function writer() {
  while (Date.now() < deadline) {
    seq++;
    const reg = await post("/api/auth/register", {
      email: `mem-${seq}-${crypto.randomUUID().slice(0, 6)}@example.fr`,
      password: "Girafe-Secret-123",
      first_name: "Mia",
      last_name: "Test",
    });
    if (reg.status !== 200) {
      failures++;
      continue;
    }
    for (let q = 0; q < 5 && Date.now() < deadline; q++) {
      const chat = await post("/api/unisson/chat", { message: `Question ${q} : quelle est la capitale de la France ?` }, reg.body.token);
      const done = chat.status === 200 ? await post("/api/unisson/process", { conversation_id: chat.body.conversation_id }, reg.body.token) : chat;
      if (done.status === 200) writes++;
      else failures++;
    }
  }
}

const samples: Array<[number, number]> = [];
const sampler = setInterval(() => samples.push([(Date.now() - (deadline - MINUTES * 60_000)) / 60_000, rssMiB(server.pid)]), 10_000);
const startRss = rssMiB(server.pid);
try {
  const [reads] = await Promise.all([wrk(server.url, { connections: 16, seconds: MINUTES * 60, threads: 1, script }), writer(), writer(), writer(), writer()]);
  clearInterval(sampler);
  samples.push([MINUTES, rssMiB(server.pid)]);
  const at = (minute: number) => samples.filter(([m]) => m <= minute + 1e-9).at(-1)?.[1] ?? Number.NaN;
  const half = Math.min(5, MINUTES / 2);
  console.log(`\nMemory of the compiled executable under ${MINUTES} minutes of mixed load\n`);
  console.log(`reads: ${reads.requests} (${fmt(reads.rps, 0)}/s, ${reads.non2xx} non-2xx); answered questions: ${writes}; refused or failed: ${failures}\n`);
  console.log("| minute | RSS |");
  console.log("|---|---|");
  console.log(`| 0 (idle, after start) | ${fmt(startRss)} MiB |`);
  for (let m = 1; m <= MINUTES; m++) console.log(`| ${m} | ${fmt(at(m))} MiB |`);
  const growth = at(MINUTES) - at(half);
  console.log(`\ngrowth from minute ${half} to minute ${MINUTES}: ${fmt(growth)} MiB (${fmt((100 * growth) / at(half))} %)`);
} finally {
  clearInterval(sampler);
  await server.stop();
  fakes.kill("SIGTERM");
  await fakes.exited;
  dir.cleanup();
}
