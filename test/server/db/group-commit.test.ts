import { describe, expect, test } from "bun:test";
import { openDb } from "../../../src/db/client.ts";
import { createGroupCommit } from "../../../src/db/group-commit.ts";

function table() {
  const db = openDb(":memory:");
  db.$client.run("CREATE TABLE t (x INTEGER UNIQUE)");
  return db;
}

describe("group commit", () => {
  test("writes queued together are all stored and each caller gets its own result", async () => {
    const db = table();
    const writes = createGroupCommit(db);
    const results = await Promise.all([1, 2, 3].map((x) => writes.run(() => db.$client.run("INSERT INTO t VALUES (?)", [x]).lastInsertRowid)));
    expect(results).toEqual([1, 2, 3]);
    expect(db.$client.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 3 });
  });

  test("a failing write rolls back alone and rejects only its caller", async () => {
    const db = table();
    const writes = createGroupCommit(db);
    const outcomes = await Promise.allSettled([
      writes.run(() => db.$client.run("INSERT INTO t VALUES (1)")),
      writes.run(() => {
        db.$client.run("INSERT INTO t VALUES (2)");
        db.$client.run("INSERT INTO t VALUES (1)"); // UNIQUE violation: this write's first insert goes too
      }),
      writes.run(() => db.$client.run("INSERT INTO t VALUES (3)")),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(db.$client.query("SELECT x FROM t ORDER BY x").all()).toEqual([{ x: 1 }, { x: 3 }]);
  });
});
