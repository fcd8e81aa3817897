/**
 * Cold start of the compiled executable to its first 200 on /api/health:
 * `bun test/bench/cold-start.bench.ts` (part of `npm run bench`). Measured
 * from spawn, BENCH_RUNS times each (default 7), on an empty data folder (the
 * database is created and migrated) and on one holding 100,000 messages.
 * Aim: under 300 ms.
 */
import { join } from "node:path";
import { ensureBinary, freePort, tempDir } from "../helpers/binary.ts";
import { fmt, median, seedConversations, seedUser, withDataDb } from "./bench.lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const binary = ensureBinary();

async function coldStart(dataDir: string): Promise<number> {
  const port = freePort();
  const t0 = performance.now();
  const proc = Bun.spawn([binary, "serve"], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      if (proc.exitCode !== null) throw new Error(`exited with ${proc.exitCode}`);
      if (performance.now() - t0 > 20_000) throw new Error("no answer in 20 s");
      await Bun.sleep(2);
    }
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

// 500 users, 100 of them with 500 conversations of 2 messages: 100,000 messages.
const big = tempDir("unisson-bench-cold-");
await withDataDb(big.path, async (db) => {
  for (let i = 0; i < 500; i++) {
    const { userId } = await seedUser(db);
    if (i % 5 === 0) seedConversations(db, userId, 500, new Date());
  }
});
const count = await withDataDb(big.path, (db) => (db.$client.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n);
const size = Bun.file(join(big.path, "unisson.db")).size;

await coldStart(big.path); // the page cache warm, as after any earlier start of the box
const empty: number[] = [];
const full: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = tempDir("unisson-bench-empty-");
  empty.push(await coldStart(dir.path));
  dir.cleanup();
  full.push(await coldStart(big.path));
}
big.cleanup();

console.log(`\nCold start of dist/unisson (compiled) to the first 200 on /api/health, ${RUNS} runs each\n`);
console.log("| database | median | min | max |");
console.log("|---|---|---|---|");
console.log(`| empty (created and migrated at start) | ${fmt(median(empty), 0)} ms | ${fmt(Math.min(...empty), 0)} ms | ${fmt(Math.max(...empty), 0)} ms |`);
console.log(
  `| ${count.toLocaleString("en")} messages (${fmt(size / 1048576, 0)} MiB) | ${fmt(median(full), 0)} ms | ${fmt(Math.min(...full), 0)} ms | ${fmt(Math.max(...full), 0)} ms |`,
);
const ok = median(empty) < 300 && median(full) < 300;
console.log(`\naim < 300 ms: ${ok ? "met" : "MISSED"}`);
