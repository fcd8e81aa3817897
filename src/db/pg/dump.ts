import type { SQL } from "bun";
import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { frOps } from "../../i18n/fr-ops.ts";
import { RefusedError } from "../../lib/errors.ts";

/** What to do on PostgreSQL without pg_dump: `migrate` refuses (unless --no-backup), a starting server warns and goes on. */
export type PgDumpRule = "required" | "if-present" | "skip";

export type PgBackup = { file?: string; notice?: string };

/**
 * Before migrating a PostgreSQL database that holds data: `pg_dump
 * --format=custom` into backups/pre-migrate-<version>.dump of the data folder,
 * 0600, the way back for the previous executable (`pg_restore`, named by its
 * refusal). The password goes through PGPASSWORD, never the command line
 * (`ps` shows it). Without pg_dump on the PATH, the exact command to run
 * instead (issue 46).
 */
export function pgDumpBackup(client: SQL, dataDir: string, version: number, rule: PgDumpRule): PgBackup {
  if (rule === "skip") return {};
  const dir = resolve(dataDir, "backups");
  const name = `pre-migrate-${version}`;
  const file = existsSync(join(dir, `${name}.dump`)) ? join(dir, `${name}-${Date.now()}.dump`) : join(dir, `${name}.dump`);
  const o = client.options as { hostname?: string; port?: number | string; username?: string; password?: unknown; database?: string };
  const where = `postgres://${o.username}@${o.hostname}:${o.port}/${o.database}`;
  const pgDump = Bun.which("pg_dump");
  if (!pgDump) {
    const notice = frOps.backup.pgDumpAbsent(`pg_dump --format=custom --file=${file} '${where}'`);
    if (rule === "required") throw new RefusedError(notice);
    return { notice };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const r = Bun.spawnSync([pgDump, "--format=custom", `--file=${file}`, `--dbname=${where}`], {
    env: { ...process.env, ...(typeof o.password === "string" && o.password ? { PGPASSWORD: o.password } : {}) },
    stdout: "ignore",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) {
    rmSync(file, { force: true });
    throw new RefusedError(frOps.backup.pgDumpFailed(r.stderr.toString().trim().split("\n")[0] ?? ""));
  }
  chmodSync(file, 0o600);
  return { file };
}
