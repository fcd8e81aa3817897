import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openDb } from "../../../src/db/client.ts";
import { createGroupCommit } from "../../../src/db/group-commit.ts";

function table() {
  const db = openDb(":memory:");
  db.$client.run("CREATE TABLE t (x INTEGER UNIQUE)");
  return db;
}
const xs = (db: ReturnType<typeof table>) => (db.$client.query("SELECT x FROM t ORDER BY x").all() as Array<{ x: number }>).map((r) => r.x);

describe("group commit", () => {
  test("writes queued together are all stored and each caller gets its own result", async () => {
    const db = table();
    const writes = createGroupCommit(db);
    const results = await Promise.all(
      [1, 2, 3].map((x) =>
        writes.run(async (tx) => {
          await tx.run(sql`INSERT INTO t VALUES (${x})`);
          return x * 10;
        }),
      ),
    );
    expect(results).toEqual([10, 20, 30]);
    expect(xs(db)).toEqual([1, 2, 3]);
  });

  test("a failing write rolls back alone and rejects only its caller", async () => {
    const db = table();
    const writes = createGroupCommit(db);
    const outcomes = await Promise.allSettled([
      writes.run((tx) => tx.run(sql`INSERT INTO t VALUES (1)`)),
      writes.run(async (tx) => {
        await tx.run(sql`INSERT INTO t VALUES (2)`);
        await tx.run(sql`INSERT INTO t VALUES (1)`); // UNIQUE violation: this write's first insert goes too
      }),
      writes.run((tx) => tx.run(sql`INSERT INTO t VALUES (3)`)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(xs(db)).toEqual([1, 3]);
  });
});
