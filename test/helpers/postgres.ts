/**
 * A throwaway PostgreSQL for tests. `npm test` (scripts/test.ts) starts one
 * cluster in a temporary folder and hands its URL to the test processes in
 * TEST_POSTGRES_URL; each test file then takes a fresh database of its own
 * (`freshPostgresDatabase`). Run alone (`bun test test/server/db`), the
 * first test file that asks starts a cluster for its process. Without
 * `initdb` on the machine, PostgreSQL tests are skipped with a visible line.
 *
 * The cluster listens on 127.0.0.1 on a free port and on a unix socket in its
 * own folder, nothing else; trust authentication (loopback only), fsync off.
 * As root, PostgreSQL's tools run as the `postgres` user (they refuse root).
 */
import { SQL } from "bun";
import { accessSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./binary.ts";

export type PostgresCluster = {
  /** Superuser URL of the cluster's `postgres` database (create databases through it). */
  url: string;
  port: number;
  dir: string;
  /** CPU seconds the cluster's server and its finished backends used so far (Linux; undefined elsewhere). */
  cpuSeconds(): number | undefined;
  stop(): void;
};

/**
 * The folder of PostgreSQL's tools: PG_BIN when set (only there), else
 * initdb's folder on PATH, else Debian's /usr/lib/postgresql/<version>/bin
 * (newest first); undefined when PostgreSQL is not installed.
 */
export function findPgBin(): string | undefined {
  const chosen = process.env.PG_BIN;
  if (chosen) return existsSync(join(chosen, "initdb")) ? chosen : undefined;
  const onPath = Bun.which("initdb");
  if (onPath) return join(onPath, "..");
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  return newest ? join(base, newest, "bin") : undefined;
}

const asRoot = process.getuid?.() === 0;

/** What the PostgreSQL pass of `npm test` writes: over 1,000 app databases of about 8 MB each (docs/TESTING.md). */
const CLUSTER_ROOM = 12 * 1024 ** 3;

/**
 * Where a cluster's files go: the memory file system (/dev/shm) when it has
 * room for a whole pass, else the temporary folder. On this project's
 * machines a `CREATE DATABASE … TEMPLATE` on the disk took 200 to 500 ms
 * (the copy's writes wait on the disk even with fsync off) against about
 * 20 ms in memory, and the pass makes one per test app (docs/TESTING.md).
 */
function clusterParent(): string {
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    const fs = statfsSync(shm);
    if (fs.bavail * fs.bsize >= CLUSTER_ROOM) return shm;
  } catch {
    // No /dev/shm (not Linux) or not writable: the temporary folder.
  }
  return tmpdir();
}

/** A PostgreSQL tool as the user that owns the cluster (they refuse to run as root). */
function asOwner(bin: string, args: string[]): string[] {
  return asRoot ? ["runuser", "-u", "postgres", "--", bin, ...args] : [bin, ...args];
}

function run(bin: string, args: string[]): void {
  const cmd = asOwner(bin, args);
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} a échoué (${r.exitCode}) : ${r.stderr.toString()}${r.stdout.toString()}`);
}

/** Starts a new cluster in a temporary folder; `stop()` stops it and deletes the folder. */
export function startPostgresCluster(bin = findPgBin()): PostgresCluster {
  if (!bin) throw new Error("initdb introuvable : PostgreSQL n'est pas installé");
  const dir = mkdtempSync(join(clusterParent(), "unisson-pg-"));
  if (asRoot) {
    const uid = Number(Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString());
    const gid = Number(Bun.spawnSync(["id", "-g", "postgres"]).stdout.toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = freePort();
  run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const settings = [
    "listen_addresses='127.0.0.1'",
    `port=${port}`,
    `unix_socket_directories='${dir}'`,
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    "max_connections=300",
  ];
  run(join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "server.log"), "-w", "-o", settings.map((s) => `-c ${s}`).join(" "), "start"]);
  watchOwner(asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]), dir);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    cpuSeconds: () => processCpuSeconds(join(data, "postmaster.pid")),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The postmaster and its children (backends, background workers): CPU
 * seconds so far, the exited children's included (the kernel adds them to
 * the postmaster's cutime/cstime). Fields of /proc/<pid>/stat in clock ticks
 * (100 a second); undefined where there is no /proc.
 */
function processCpuSeconds(pidFile: string): number | undefined {
  const fields = (pid: number | string) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  };
  try {
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    const own = fields(postmaster);
    let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const f = fields(name);
        if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
      } catch {
        // The process ended meanwhile.
      }
    }
    return ticks / 100;
  } catch {
    return undefined;
  }
}

/**
 * The cluster dies with the process that started it, however that ends: bun
 * test runs no exit hook reliably, and a killed run must not leave a server
 * behind. A watcher in its own session waits for this process to go, then
 * stops the cluster and deletes its folder (after a clean stop() it finds
 * nothing left to do).
 */
function watchOwner(stop: string[], dir: string): void {
  const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stop.map(quoted).join(" ")} >/dev/null 2>&1; rm -rf ${quoted(dir)}`;
  Bun.spawn(["setsid", "sh", "-c", script], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
}

// Module state: the cluster this process started itself (a test file run alone), stopped when the process exits.
let ownCluster: PostgresCluster | undefined;
let warned = false;

/** The cluster's URL: TEST_POSTGRES_URL (from scripts/test.ts), else one started for this process; undefined without PostgreSQL. */
export function postgresTestUrl(): string | undefined {
  if (process.env.TEST_POSTGRES_URL) return process.env.TEST_POSTGRES_URL;
  if (ownCluster) return ownCluster.url;
  const bin = findPgBin();
  if (!bin) {
    if (!warned) console.warn("PostgreSQL absent (pas d'initdb) : tests PostgreSQL ignorés");
    warned = true;
    return undefined;
  }
  ownCluster = startPostgresCluster(bin);
  process.on("exit", () => ownCluster?.stop());
  return ownCluster.url;
}

/**
 * A client of one connection, for a test's statement or two on any database
 * of the cluster (CREATE or DROP DATABASE, a row read or changed beside the
 * app). Never `new SQL(url)`: Bun's client opens its whole pool at the
 * first query (10 connections by default), and each connection costs the
 * server several milliseconds of CPU (forking, catalog caches, exit: 5 to
 * 26 ms measured here): the suite made thousands of them for nothing
 * (docs/TESTING.md).
 */
export const pgClient = (url: string) => new SQL({ url, max: 1 });

// Module state: this process's connection to the cluster's `postgres` database (adminConnection).
let adminSession: { url: string; sql: SQL } | undefined;

/**
 * The one connection of this process that creates and drops databases,
 * kept between statements (a test process makes hundreds of databases: one
 * connection each was a third of the pass's connections). It closes itself
 * after 10 idle seconds, and opens again at the next statement.
 */
export function adminConnection(url: string): SQL {
  if (adminSession?.url !== url) adminSession = { url, sql: new SQL({ url, max: 1, idleTimeout: 10 }) };
  return adminSession.sql;
}

export type PostgresDatabase = { url: string; drop(): Promise<void> };

/** A new empty database on the test cluster, dropped by `drop()` (connections to it are closed first). */
export async function freshPostgresDatabase(): Promise<PostgresDatabase | undefined> {
  const admin = postgresTestUrl();
  if (!admin) return undefined;
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminConnection(admin).unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await adminConnection(admin).unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
