/**
 * `unisson db copy` both ways on a database of BENCH_USERS users (default
 * 1,000), each with 50 conversations of a question and a consolidated answer
 * (100,000 messages by default): `bun test/bench/db-copy.bench.ts` (part of
 * `npm run bench`). The CLI from source, as an operator runs it; the target
 * is the tests' throwaway PostgreSQL (test/helpers/postgres.ts: fsync off,
 * so the PostgreSQL side's disk waits are left out).
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { tempDir } from "../helpers/binary.ts";
import { freshPostgresDatabase } from "../helpers/postgres.ts";

const USERS = Number(process.env.BENCH_USERS ?? 1000);
const CONVERSATIONS = 50;
const root = join(import.meta.dir, "..", "..");

function cli(dataDir: string, args: string[], env: Record<string, string> = {}): { seconds: number; out: string } {
  const t0 = performance.now();
  const r = Bun.spawnSync([process.execPath, "src/main.ts", "--data-dir", dataDir, ...args], { cwd: root, env: { PATH: process.env.PATH ?? "", ...env } });
  if (r.exitCode !== 0) throw new Error(`unisson ${args.join(" ")}: ${r.stderr.toString()}`);
  return { seconds: (performance.now() - t0) / 1000, out: r.stdout.toString() };
}

const dir = tempDir("unisson-bench-copy-");
const pg = await freshPostgresDatabase();
if (!pg) throw new Error("PostgreSQL absent (pas d'initdb)");
try {
  cli(dir.path, ["migrate"]);
  const file = join(dir.path, "unisson.db");
  const db = new Database(file);
  const user = db.prepare(
    "INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) VALUES (?, ?, 'Prénom', 'Nom', ?, ?) RETURNING id",
  );
  const conv = db.prepare("INSERT INTO conversations (user_id, title, message_count, created_at, updated_at) VALUES (?, ?, 2, ?, ?) RETURNING id");
  const msg = db.prepare("INSERT INTO messages (conversation_id, sender, message_type, content, result_data, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const result = JSON.stringify({
    primary_ai: "GPT-4",
    available_ais: ["GPT-4", "Claude Opus 4.1", "Mistral Large"],
    answers: { "GPT-4": "Réponse. ".repeat(60) },
  });
  db.transaction(() => {
    const t = Date.now();
    for (let u = 0; u < USERS; u++) {
      const { id } = user.get(`bench${u}@example.fr`, `$argon2id$v=19$m=65536,t=2,p=1$${"x".repeat(66)}`, t, t) as { id: number };
      for (let c = 0; c < CONVERSATIONS; c++) {
        const { id: cid } = conv.get(id, `Question numéro ${c}`, t, t) as { id: number };
        msg.run(cid, "user", "question", `Quelle est la réponse à la question numéro ${c} ? `.repeat(3), null, t);
        msg.run(cid, "assistant", "final_response", "## Réponse consolidée\nTous les modèles s'accordent. ".repeat(12), result, t);
      }
    }
  })();
  db.close();
  const mib = Bun.file(file).size / 1024 / 1024;

  const there = cli(dir.path, ["db", "copy", "--to", pg.url, "--json"]);
  const rows = (JSON.parse(there.out) as { rows: number }).rows;
  const back = cli(dir.path, ["db", "copy", "--to", `sqlite:${join(dir.path, "retour.db")}`], { DATABASE_URL: pg.url });
  console.log(`${rows} rows, SQLite file ${mib.toFixed(0)} MiB`);
  console.log("| direction | seconds | rows/s |");
  console.log("|---|---|---|");
  for (const [name, r] of [
    ["SQLite -> PostgreSQL", there],
    ["PostgreSQL -> new SQLite file", back],
  ] as const)
    console.log(`| ${name} | ${r.seconds.toFixed(1)} | ${Math.round(rows / r.seconds)} |`);
} finally {
  await pg.drop();
  dir.cleanup();
}
