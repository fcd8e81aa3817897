/**
 * What reading the council costs (issue 35): `bun test/bench/council.bench.ts`.
 *
 * A question reads the council's version before it starts (one primary-key
 * read) and reloads the members only after a change; the status and the
 * model list reuse the snapshot for a second. Measured in-process on a SQLite
 * file (WAL), median of 5 rounds: the version check alone, a reload after a
 * change (the write excluded), and /api/unisson/status through the app.
 * Not a test: numbers depend on the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { currentCouncil } from "../../src/council/council-runtime.ts";
import { updateMember } from "../../src/council/council.store.ts";
import { createTestApp } from "../helpers/app.ts";

const ROUNDS = 5;
const CHECKS = Number(process.env.BENCH_CHECKS ?? 20_000);
const RELOADS = Number(process.env.BENCH_RELOADS ?? 500);
const STATUS = Number(process.env.BENCH_STATUS ?? 20_000);

const dir = mkdtempSync(join(tmpdir(), "unisson-bench-council-"));
const t = await createTestApp({ env: { DATABASE_PATH: join(dir, "unisson.db"), OPENAI_API_KEY: "sk-x", ANTHROPIC_API_KEY: "sk-y" } });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const micro = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(1)} µs`;

async function round(): Promise<{ check: number; reload: number; status: number }> {
  await currentCouncil(t.deps);
  let started = performance.now();
  for (let i = 0; i < CHECKS; i++) await currentCouncil(t.deps);
  const check = performance.now() - started;
  let reload = 0;
  for (let i = 0; i < RELOADS; i++) {
    await updateMember(t.db, "Sonar Pro", { specialty: `Recherche ${i}` }, new Date());
    started = performance.now();
    await currentCouncil(t.deps);
    reload += performance.now() - started;
  }
  started = performance.now();
  for (let i = 0; i < STATUS; i++) await t.app.request("/api/unisson/status");
  return { check, reload, status: performance.now() - started };
}

const rounds = [];
for (let r = 0; r < ROUNDS; r++) rounds.push(await round());
console.log(`version check (no change), per question: ${micro(median(rounds.map((r) => r.check)), CHECKS)}`);
console.log(`reload after a change (six members, two keys): ${micro(median(rounds.map((r) => r.reload)), RELOADS)}`);
console.log(`GET /api/unisson/status through the app (snapshot reused for 1 s): ${micro(median(rounds.map((r) => r.status)), STATUS)}`);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
