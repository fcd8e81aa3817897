/**
 * Resident memory while exporting a large account: `bun test/bench/export-memory.bench.ts`
 * (part of `npm run bench`). The compiled executable serves a user with
 * BENCH_EXPORT_CONVERSATIONS (3,000) conversations of about 50 KB each; the
 * data export (GET /api/auth/export) is read BENCH_EXPORT_RUNS (3) times in a
 * row, gzip as browsers ask, while /api/health is asked every 100 ms. Prints
 * the export's size and time, the server's RSS before and at its highest
 * (sampled every 50 ms), and the slowest /api/health meanwhile.
 */
import { tempDir } from "../helpers/binary.ts";
import { readFileSync } from "node:fs";
import { fmt, rssMiB, seedUser, startServer, withDataDb } from "./bench.lib.ts";

/** Anonymous resident memory (the heap; the rest of RSS is mapped files such as the executable), in MiB. */
function anonMiB(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/RssAnon:\s+(\d+) kB/)?.[1] ?? Number.NaN) / 1024;
}

const CONVERSATIONS = Number(process.env.BENCH_EXPORT_CONVERSATIONS ?? 3000);
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 3);
/** About the account: 156 MB for 3,000 conversations. */
const ANSWER = `## Réponse consolidée\n${"Une réponse longue et détaillée, avec ses sources et ses nuances. ".repeat(700)}\n`;

const dir = tempDir("unisson-bench-export-");
const { token } = await withDataDb(dir.path, async (db) => {
  const u = await seedUser(db, { subscriptionType: "pro" });
  const conv = db.$client.prepare("INSERT INTO conversations (user_id, title, message_count, created_at, updated_at) VALUES (?, ?, 2, ?, ?) RETURNING id");
  const msg = db.$client.prepare("INSERT INTO messages (conversation_id, sender, message_type, content, created_at) VALUES (?, ?, ?, ?, ?)");
  const now = Date.now();
  db.$client.transaction(() => {
    for (let i = 0; i < CONVERSATIONS; i++) {
      const t = now - (CONVERSATIONS - i) * 60_000;
      const { id } = conv.get(u.userId, `Question numéro ${i}`, t, t) as { id: number };
      msg.run(id, "user", null, `Quelle est la réponse détaillée à la question numéro ${i} ?`, t);
      msg.run(id, "assistant", "final_response", ANSWER, t);
    }
  })();
  return u;
});

const server = await startServer(dir.path, { LOG_LEVEL: "warn" });
await Bun.sleep(500);
const idle = rssMiB(server.pid);
const idleAnon = anonMiB(server.pid);
console.log(`${CONVERSATIONS} conversations of ${fmt(ANSWER.length / 1024, 0)} KB; server RSS idle: ${fmt(idle, 0)} MiB (anonymous ${fmt(idleAnon, 0)})`);

for (let run = 1; run <= RUNS; run++) {
  let peak = rssMiB(server.pid);
  let peakAnon = anonMiB(server.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(server.pid));
    peakAnon = Math.max(peakAnon, anonMiB(server.pid));
  }, 50);
  let slowestHealth = 0;
  let reading = true;
  const health = (async () => {
    while (reading) {
      const t0 = performance.now();
      await fetch(`${server.url}/api/health`).then((r) => r.arrayBuffer());
      slowestHealth = Math.max(slowestHealth, performance.now() - t0);
      await Bun.sleep(100);
    }
  })();
  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/auth/export`, { headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body!) bytes += chunk.byteLength;
  const seconds = (performance.now() - t0) / 1000;
  reading = false;
  await health;
  clearInterval(sampler);
  console.log(
    `run ${run}: ${fmt(bytes / 1e6)} MB in ${fmt(seconds)} s; RSS ${fmt(idle, 0)} -> peak ${fmt(peak, 0)} MiB (+${fmt(peak - idle, 0)}), anonymous peak ${fmt(peakAnon, 0)} MiB; slowest /api/health ${fmt(slowestHealth, 0)} ms`,
  );
}

await server.stop();
dir.cleanup();
