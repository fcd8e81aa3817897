import { describe, expect, test } from "bun:test";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { migrations } from "../../../src/db/migrations/index.ts";
import { unreadBefore } from "../../../src/attachments/attachments.queries.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/**
 * How SQLite stores the files (issue 44): a row's values one after the other, a
 * large one in a chain of overflow pages, so a column placed after a 10 MB file
 * cost reading the 10 MB. The cleanup job's scan, every 10 minutes, read every
 * stored byte (0.12 s of the server's thread for 300 MB, growing with the data).
 */
describe("attachments on SQLite: the bytes out of every small read's way", () => {
  const columns = (db: ReturnType<typeof openDb>) =>
    db.$client
      .query("SELECT name FROM pragma_table_info('attachments')")
      .values()
      .map((r) => r[0]);

  test("the large values are the last columns, smallest first", async () => {
    const db = openDb(":memory:");
    await runMigrations(db);
    const cols = columns(db);
    expect(cols.slice(-4)).toEqual(["text", "thumbnail", "model_image", "data"]);
    expect(cols.indexOf("created_at")).toBeLessThan(cols.indexOf("text"));
  });

  test("the cleanup's scan reads indexes, never the files nor the runs' rows", async () => {
    const db = openDb(":memory:");
    await runMigrations(db);
    const q = unreadBefore(db, new Date()).toSQL();
    const plan = db.$client
      .query(`EXPLAIN QUERY PLAN ${q.sql}`)
      .all(...(q.params as never[]))
      .map((r) => (r as { detail: string }).detail);
    expect(plan[0]).toContain("USING COVERING INDEX attachments_unread_idx");
    // Each sent file's run, by its conversation: from an index too (a run's created_at is stored after its events).
    expect(plan.join("\n")).toContain("SEARCH processing_runs USING COVERING INDEX processing_runs_conversation_idx");
    expect(plan.join("\n")).not.toContain("SCAN");
  });

  test("the migration keeps every file, its bytes and its id, and never gives a deleted file's id again", async () => {
    const db = openDb(":memory:");
    const at = migrations.findIndex((m) => m.tag.endsWith("_attachments_bytes_last"));
    await runMigrations(db, migrations.slice(0, at));
    const { user } = await makeUser(db, new Date());
    const insert = db.$client.prepare(
      "INSERT INTO attachments (user_id, name, kind, mime, size, data, model_image, thumbnail, text, pages, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const big = new Uint8Array(300_000).map((_, i) => i % 251);
    insert.run(user.id, "bail.pdf", "pdf", "application/pdf", big.length, big, null, null, "Le loyer\fPage 2", 2, null, null, 1000);
    insert.run(user.id, "photo.png", "png", "image/png", 3, new Uint8Array([1, 2, 3]), new Uint8Array([4, 5]), new Uint8Array([6]), null, null, 640, 480, 2000);
    insert.run(user.id, "gone.txt", "text", "text/plain", 2, new Uint8Array([7, 8]), null, null, null, null, null, null, 3000);
    db.$client.run("DELETE FROM attachments WHERE name = 'gone.txt'");
    const before = db.$client.query("SELECT * FROM attachments ORDER BY id").all();

    await runMigrations(db);
    expect(db.$client.query("SELECT * FROM attachments ORDER BY id").all()).toEqual(before);
    expect(db.$client.query("SELECT seq FROM sqlite_sequence WHERE name = 'attachments'").values()).toEqual([[3]]);
    const next = insert.run(user.id, "neuf.txt", "text", "text/plain", 1, new Uint8Array([9]), null, null, null, null, null, null, 4000);
    expect(Number(next.lastInsertRowid)).toBe(4);
    const indexes = db.$client
      .query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'attachments' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .values()
      .map((r) => r[0]);
    expect(indexes).toEqual(["attachments_message_idx", "attachments_unread_idx", "attachments_user_idx"]);
    expect(db.$client.query("PRAGMA foreign_key_check").all()).toEqual([]);
  });
});
