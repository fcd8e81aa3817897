/**
 * Shared pieces of the benchmarks (not tests): seeding a data folder the way
 * a live box looks, starting the compiled executable on it, and driving it
 * with wrk. Everything listens on 127.0.0.1, port 0, and is stopped by the
 * caller.
 */
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openDb, type Db } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { ensureBinary, freePort, tempDir } from "../helpers/binary.ts";
import { makeUser } from "../helpers/fixtures.ts";

export const ROOT = join(import.meta.dir, "..", "..");

/** The per-user spend limits lifted: a benchmark measures the engine, not the limits that guard it. */
export const UNMETERED = { CHAT_LIMIT_PER_10_MIN: "1000000", CHAT_LIMIT_PER_DAY: "1000000", TRIAL_CHAT_LIMIT_PER_DAY: "1000000" };

/** Opens (and migrates) the data folder's database for seeding, then closes it. */
export async function withDataDb<T>(dataDir: string, fn: (db: Db) => T | Promise<T>): Promise<T> {
  const db = openDb(join(dataDir, "unisson.db"));
  try {
    await runMigrations(db);
    return await fn(db);
  } finally {
    db.$client.close();
  }
}

/** A user with `count` conversations of 2 messages each (a question and an answer), in one transaction. */
export function seedConversations(db: Db, userId: number, count: number, now: Date): void {
  const conv = db.$client.prepare("INSERT INTO conversations (user_id, title, message_count, created_at, updated_at) VALUES (?, ?, 2, ?, ?) RETURNING id");
  const msg = db.$client.prepare("INSERT INTO messages (conversation_id, sender, message_type, content, created_at) VALUES (?, ?, ?, ?, ?)");
  db.$client.transaction(() => {
    for (let i = 0; i < count; i++) {
      const t = now.getTime() - (count - i) * 60_000;
      const { id } = conv.get(userId, `Question numéro ${i}`, t, t) as { id: number };
      msg.run(id, "user", "question", `Quelle est la réponse à la question numéro ${i} ? `.repeat(3), t);
      msg.run(id, "assistant", "final_response", `## Réponse consolidée\nLa réponse ${i}.\n## Points de consensus\nTous d'accord.`.repeat(4), t);
    }
  })();
}

/** A signed-in user straight in the database; returns the bearer token. */
export async function seedUser(db: Db, values: Parameters<typeof makeUser>[2] = {}): Promise<{ token: string; userId: number }> {
  const { user, token } = await makeUser(db, new Date(), values);
  return { token, userId: user.id };
}

export type Running = { url: string; pid: number; proc: ReturnType<typeof Bun.spawn>; stop(): Promise<void> };

/**
 * The compiled executable (this tree's, or `binary`: another build to compare
 * with) serving `dataDir`, its log in `logFile` (a real operator's box writes
 * its log somewhere; a pipe nobody reads would block it).
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  logFile = join(dataDir, "server.log"),
  binary = ensureBinary(),
): Promise<Running> {
  const port = freePort();
  const proc = Bun.spawn([binary, "serve"], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, ...env },
    stdout: Bun.file(logFile),
    stderr: Bun.file(`${logFile}.err`),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, proc);
  return running(proc, url);
}

/** A started server process: its address, and a stop() that waits for it to exit. */
function running(proc: Running["proc"], url: string): Running {
  return {
    url,
    pid: proc.pid,
    proc,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

export async function waitHealthy(url: string, proc: { exitCode: number | null }, path = "/api/health", timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    await Bun.sleep(20);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The minimal reference: bare Hono on Bun answering one bun:sqlite lookup (reference-server.ts). */
export async function startReference(dbFile: string): Promise<Running> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "reference-server.ts"), dbFile], { stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const url = new TextDecoder().decode(value).trim();
  await waitHealthy(url, proc, "/health");
  return running(proc, url);
}

export type WrkResult = { rps: number; p50: number; p99: number; requests: number; non2xx: number; errors: number };

export function requireWrk(): string {
  const path = Bun.which("wrk");
  if (!path || !existsSync(path)) throw new Error("wrk is needed for the HTTP benchmarks: apt-get install -y wrk");
  return path;
}

/** One wrk run (latency percentiles in ms). wrk stops by itself after `seconds`. */
export async function wrk(
  url: string,
  opts: { connections: number; seconds: number; threads?: number; headers?: Record<string, string>; script?: string },
): Promise<WrkResult> {
  const args = [requireWrk(), "-t", String(opts.threads ?? 2), "-c", String(opts.connections), "-d", `${opts.seconds}s`, "--latency", "--timeout", "5s"];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push("-H", `${k}: ${v}`);
  if (opts.script) args.push("-s", opts.script);
  args.push(url);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  return parseWrk(out);
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : n;
}

export function parseWrk(out: string): WrkResult {
  const pct = (p: string) => {
    const m = out.match(new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m"));
    return m ? toMs(m[1]!, m[2]!) : Number.NaN;
  };
  const errs = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN),
    p50: pct("50"),
    p99: pct("99"),
    requests: Number(out.match(/(\d+) requests in/)?.[1] ?? 0),
    non2xx: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    errors: errs ? errs.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
  };
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc; 100 ticks a second). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident set size of a process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/**
 * The fake providers in a process of their own (their CPU is the providers',
 * not the server's), scripted per model; resolves with the base-URL
 * variables they print on their first line.
 */
export async function spawnFakeProviders(scripts: Record<string, unknown> = {}): Promise<{ env: Record<string, string>; proc: ReturnType<typeof Bun.spawn> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "fakes", "ai", "standalone.ts"), JSON.stringify(scripts)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { env: JSON.parse(text.split("\n")[0]!.trim()) as Record<string, string>, proc };
}

/** How many migrations an executable carries: what it applies to an empty database. */
export function migrationsOf(binary: string): number {
  const empty = tempDir("unisson-bench-count-");
  try {
    const r = Bun.spawnSync([binary, "migrate", "--json"], { env: { ...process.env, DATA_DIR: empty.path }, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`${binary} migrate: ${r.stderr.toString()}`);
    return (JSON.parse(r.stdout.toString()) as { applied: number }).applied;
  } finally {
    empty.cleanup();
  }
}

/**
 * An older executable refuses a database a newer schema migrated. Migrations
 * only ever add, so its copy forgets those it does not know; the extra
 * columns and tables they made go unread by it.
 */
export function forgetNewerMigrations(file: string, keep: number): void {
  const db = new Database(file);
  db.run("DELETE FROM __drizzle_migrations WHERE rowid NOT IN (SELECT rowid FROM __drizzle_migrations ORDER BY created_at LIMIT ?)", [keep]);
  db.close();
}
