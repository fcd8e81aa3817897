import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCheckpointer } from "../../../src/db/checkpointer.ts";
import { closeDb, openDb } from "../../../src/db/client.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const pragma = (db: ReturnType<typeof openDb>, name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];
const quiet = { warn() {} };

describe("SQLite checkpoints off the server's thread (src/db/checkpointer.ts)", () => {
  test("the server's connection stops checkpointing, the worker copies the WAL into the database file, and stop() hands it back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "unisson-ckpt-"));
    dirs.push(dir);
    const path = join(dir, "unisson.db");
    const db = openDb(path);
    const checkpointer = startCheckpointer(db, quiet);
    expect(pragma(db, "wal_autocheckpoint")).toBe(0);
    db.$client.run("CREATE TABLE files (id INTEGER PRIMARY KEY, data BLOB)");
    const before = statSync(path).size;
    // 4 MB committed: with no checkpoint at all it would stay in the WAL and the database file would not grow.
    for (let i = 0; i < 4; i++) db.$client.query("INSERT INTO files (data) VALUES (?)").run(Buffer.alloc(1024 * 1024, i));
    const deadline = Date.now() + 10_000;
    while (statSync(path).size < before + 4 * 1024 * 1024 && Date.now() < deadline) await Bun.sleep(50);
    expect(statSync(path).size).toBeGreaterThanOrEqual(before + 4 * 1024 * 1024);
    await checkpointer.stop();
    expect(pragma(db, "wal_autocheckpoint")).toBe(1000);
    await closeDb(db);
  });

  test("an in-memory database has nothing to checkpoint: no worker, SQLite's default kept", async () => {
    const db = openDb(":memory:");
    const checkpointer = startCheckpointer(db, quiet);
    expect(pragma(db, "wal_autocheckpoint")).toBe(1000);
    await checkpointer.stop();
    await closeDb(db);
  });
});
