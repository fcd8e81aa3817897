import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { backupDatabase } from "../admin/backup.ts";
import type { Deps } from "../deps.ts";
import type { Job } from "../jobs/job.ts";

/** Automatic backups are named by their UTC time, so names sort oldest first. */
const AUTO = /^unisson-\d{8}-\d{6}\.db$/;

function backupDir(dataDir: string): string {
  return join(dataDir, "backups");
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

/**
 * One automatic backup (VACUUM INTO, verified, 0600) into DATA_DIR/backups,
 * then rotation: only the newest BACKUP_KEEP automatic copies stay. The
 * pre-migration copies and an operator's own files are never removed.
 */
export async function takeAutomaticBackup({ db, config, clock }: Deps): Promise<{ file: string; removed: string[] }> {
  const dir = backupDir(config.dataDir);
  const { file } = await backupDatabase(db, join(dir, `unisson-${stamp(clock.now())}.db`));
  const automatic = readdirSync(dir)
    .filter((n) => AUTO.test(n))
    .sort();
  const removed = automatic.slice(0, Math.max(0, automatic.length - config.backup.keep));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return { file, removed };
}

/** The server's backup job when BACKUP_INTERVAL is set (an in-memory database has nothing to keep, PostgreSQL is pg_dump's). */
export function backupJobs({ config }: Pick<Deps, "config">): Job[] {
  const every = config.backup.intervalMs;
  if (!every || config.databasePath === ":memory:" || config.databaseUrl) return [];
  return [{ name: "backup", everyMs: every, run: takeAutomaticBackup }];
}
