import { frOps } from "../i18n/fr-ops.ts";
import { chmodSync, closeSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Db, dialectOf } from "../db/client.ts";
import { copyDatabaseTo, integrityProblems } from "../db/sqlite/backup.ts";
import { AppError } from "../lib/errors.ts";

export type BackupResult = { file: string; bytes: number; integrity: "ok" };

/**
 * A consistent copy of the live database with VACUUM INTO: a read
 * transaction, so the server keeps writing meanwhile (WAL), and the copy is
 * compact and self-contained (no -wal file). The copy is then opened on its
 * own and checked with PRAGMA integrity_check; a bad copy is removed, never
 * left looking like a backup. An existing file is never overwritten.
 */
export async function backupDatabase(db: Db, target: string): Promise<BackupResult> {
  // A file copy is SQLite's; PostgreSQL is saved with its own tools.
  if (dialectOf(db) === "postgres") throw new AppError("BACKUP_UNAVAILABLE", frOps.backup.postgres);
  const file = resolve(target);
  mkdirSync(dirname(file), { recursive: true });
  // Claim the name atomically (O_EXCL): VACUUM INTO accepts an empty file, and
  // a file of someone else is neither overwritten nor removed on failure.
  // 0600 from the start: a backup holds what the database holds.
  try {
    closeSync(openSync(file, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") {
      throw new AppError("BACKUP_TARGET_EXISTS", frOps.backup.exists(file));
    }
    throw new AppError("BACKUP_FAILED", frOps.backup.cannotCreate(file, e instanceof Error ? e.message : String(e)));
  }
  try {
    await copyDatabaseTo(db, file);
  } catch (e) {
    rmSync(file, { force: true });
    throw new AppError("BACKUP_FAILED", frOps.backup.failed(e instanceof Error ? e.message : String(e)));
  }
  chmodSync(file, 0o600);
  const problems = integrityProblems(file);
  if (problems.length) {
    rmSync(file, { force: true });
    throw new AppError("BACKUP_FAILED", frOps.backup.corrupt(problems.slice(0, 3).join(" ; ")));
  }
  return { file, bytes: statSync(file).size, integrity: "ok" };
}
