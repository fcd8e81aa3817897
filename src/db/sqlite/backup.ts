import { Database } from "bun:sqlite";
import { type Db, onConnection } from "../client.ts";

/** A consistent, compact copy of the live database into `file` (an empty file or none): VACUUM INTO, a read transaction. */
export async function copyDatabaseTo(db: Db, file: string): Promise<void> {
  await onConnection(db, (sqlite) => sqlite.run("VACUUM INTO ?", [file]));
}

/** PRAGMA integrity_check of a database file (a backup, opened on its own, read-only): [] when sound. */
export function integrityProblems(file: string): string[] {
  const copy = new Database(file, { readonly: true });
  try {
    const rows = copy.query("PRAGMA integrity_check").all() as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).filter((r) => r !== "ok");
  } finally {
    copy.close();
  }
}
