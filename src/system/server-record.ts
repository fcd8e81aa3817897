import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { explainNotWritable } from "./data-dir.ts";

/**
 * Where a running server can be reached, written in its data folder once it
 * listens (server.json) and removed when it stops: `unisson healthcheck` run
 * with the same data folder asks that server, not whatever answers on
 * 127.0.0.1:$PORT. `database` names the database (the SQLite file's absolute
 * path, or PostgreSQL's URL without its password), so a check run with
 * another database is not fooled either.
 */
export type ServerRecord = { pid: number; hostname: string; url: string; database: string; startedAt: string };

const FILE = "server.json";

export function serverRecordPath(dataDir: string): string {
  return join(dataDir, FILE);
}

/** The database as the record names it: PostgreSQL's URL without its password, or the SQLite file's absolute path (a relative DATA_DIR depends on the working directory). */
export function recordedDatabase(config: { databaseUrl?: string; databaseLabel: string; databasePath: string }): string {
  return config.databaseUrl ? config.databaseLabel : resolve(config.databasePath);
}

/** The address a local client dials for a listening host: a wildcard address means this machine. */
export function localUrl(host: string, port: number): string {
  const dial = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${dial.includes(":") ? `[${dial}]` : dial}:${port}`;
}

export function writeServerRecord(dataDir: string, record: Omit<ServerRecord, "pid" | "hostname">): void {
  explainNotWritable(dataDir, () => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const full: ServerRecord = { pid: process.pid, hostname: hostname(), ...record };
    writeFileSync(serverRecordPath(dataDir), `${JSON.stringify(full, null, 2)}\n`, { mode: 0o600 });
  });
}

export function readServerRecord(dataDir: string): ServerRecord | undefined {
  const path = serverRecordPath(dataDir);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as ServerRecord;
  } catch {
    return undefined;
  }
}

/** Removed only if this process wrote it: another server may have started on the folder since. */
export function removeServerRecord(dataDir: string): void {
  const record = readServerRecord(dataDir);
  if (record?.pid === process.pid && record.hostname === hostname()) rmSync(serverRecordPath(dataDir), { force: true });
}

/** Whether the process that wrote the record still runs (another host's: assumed so, its answer decides). */
export function recordedProcessAlive(record: ServerRecord): boolean {
  if (record.hostname !== hostname()) return true;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
