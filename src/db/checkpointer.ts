import { type Db, dialectOf, handleOf } from "./client.ts";

/** How often the worker copies the WAL back into the database file. */
const EVERY_MS = 200;
/** SQLite's own default, put back if the worker fails: the WAL must never grow unchecked. */
const AUTOCHECKPOINT_PAGES = 1000;
/** Checkpoints failed in a row before the server gives the work back to its own connection (one warning, not five a second). */
const GIVE_UP_AFTER = 5;

/**
 * The worker: its own connection to the same file, and a PASSIVE checkpoint
 * every EVERY_MS. PASSIVE never waits for a lock and never holds the write
 * lock, so the server's connection neither waits for it nor is waited on.
 * A Blob URL, not a file: nothing to list among the compiled executable's
 * entry points (scripts/build-binary.ts).
 */
const WORKER = `
import { Database } from "bun:sqlite";
// Module state: the worker's own connection, its timer and its failures in a row; the worker is a thread of its own, with nothing of Deps.
let db, timer, failures = 0;
const tick = () => {
  try { db.query("PRAGMA wal_checkpoint(PASSIVE)").values(); failures = 0; }
  catch (e) { failures++; postMessage({ error: String(e), failures }); }
};
self.onmessage = (e) => {
  if (e.data.path) {
    db = new Database(e.data.path);
    db.run("PRAGMA synchronous = FULL");
    timer = setInterval(tick, e.data.everyMs);
    return;
  }
  clearInterval(timer);
  tick();
  db.close();
  postMessage({ stopped: true });
};
`;

export type Checkpointer = { stop(): Promise<void> };

/**
 * The server's SQLite checkpoints, off its thread. SQLite checkpoints in the
 * connection whose commit passes 1,000 pages of WAL: copying 4 MB into the
 * database file and its fsync, synchronously, on the thread that answers
 * every request. Measured on this box with 1 MB rows: a commit 4 ms at the
 * median, 130-210 ms when it checkpointed (docs/BENCHMARKS.md, "Hostile
 * files"). The server's connection stops checkpointing (wal_autocheckpoint
 * = 0) and a worker does it. Commits keep synchronous = FULL: durability is
 * the commit's fsync of the WAL, not the checkpoint's. The CLI keeps SQLite's
 * default (its connections are short). Nothing to do on PostgreSQL or an
 * in-memory database.
 */
export function startCheckpointer(db: Db, log: { warn(msg: string, fields?: Record<string, unknown>): void }): Checkpointer {
  if (dialectOf(db) !== "sqlite") return { stop: async () => {} };
  const sqlite = handleOf(db).conn.sqlite;
  const path = sqlite.filename;
  if (!path || path === ":memory:") return { stop: async () => {} };
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: "application/javascript" })));
  let stopped: (() => void) | undefined;
  const fallBack = (error: unknown) => {
    log.warn("checkpoint worker failed: the server checkpoints itself again", { error: String(error) });
    sqlite.run(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  worker.onmessage = (e: MessageEvent<{ error?: string; failures?: number; stopped?: boolean }>) => {
    if (e.data.stopped) stopped?.();
    else if (e.data.error && (e.data.failures ?? 0) >= GIVE_UP_AFTER) {
      worker.terminate();
      fallBack(e.data.error);
    } else if (e.data.error) log.warn("checkpoint failed", { error: e.data.error });
  };
  worker.onerror = (e) => {
    worker.terminate();
    fallBack(e.message);
  };
  sqlite.run("PRAGMA wal_autocheckpoint = 0");
  worker.postMessage({ path, everyMs: EVERY_MS });
  return {
    async stop() {
      const done = new Promise<void>((resolve) => {
        stopped = resolve;
      });
      worker.postMessage({ stop: true });
      // A worker that does not answer within a second is ended: closing the server's connection checkpoints anyway.
      await Promise.race([done, Bun.sleep(1000)]);
      worker.terminate();
      sqlite.run(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    },
  };
}
