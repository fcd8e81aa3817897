import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { type Db, openDb } from "../../../src/db/client.ts";
import { TransactionMisuseError } from "../../../src/db/connection.ts";
import { transaction } from "../../../src/db/transaction.ts";

function table(): Db {
  const db = openDb(":memory:");
  db.$client.run("CREATE TABLE t (x INTEGER UNIQUE)");
  return db;
}
const xs = (db: Db) => (db.$client.query("SELECT x FROM t ORDER BY x").all() as Array<{ x: number }>).map((r) => r.x);
const insert = (db: Db, x: number) => db.run(sql`INSERT INTO t VALUES (${x})`);

/** A promise the test settles by hand: keeps a transaction open across turns of the event loop. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

/** The misuse error, whether thrown as is or wrapped by drizzle (its `cause`). */
function misuse(e: unknown): boolean {
  for (let err = e; err; err = (err as { cause?: unknown }).cause) if (err instanceof TransactionMisuseError) return true;
  return false;
}

describe("transactions", () => {
  test("a write of another request issued while a transaction is open waits and lands after the commit", async () => {
    const db = table();
    const g = gate();
    const tx1 = transaction(db, async (tx) => {
      await insert(tx, 1);
      await g.opened;
      await insert(tx, 2);
    });
    await Bun.sleep(5);
    let landed = false;
    const other = insert(db, 3).then(() => {
      landed = true;
    });
    await Bun.sleep(5);
    expect(landed).toBe(false);
    g.open();
    await tx1;
    await other;
    expect(landed).toBe(true);
    expect(xs(db)).toEqual([1, 2, 3]);
  });

  test("a write of another request is not lost when the open transaction rolls back", async () => {
    const db = table();
    const g = gate();
    const tx1 = transaction(db, async (tx) => {
      await insert(tx, 1);
      await g.opened;
      throw new Error("abandon");
    });
    await Bun.sleep(5);
    // then() sends it now (a drizzle query is lazy): issued while the transaction is open.
    const other = insert(db, 3).then(() => {});
    await Bun.sleep(5);
    g.open();
    await expect(tx1).rejects.toThrow("abandon");
    await other;
    expect(xs(db)).toEqual([3]);
  });

  test("a rollback drops the transaction's writes and only them", async () => {
    const db = table();
    await insert(db, 1);
    await expect(
      transaction(db, async (tx) => {
        await insert(tx, 2);
        await insert(tx, 3);
        throw new Error("non");
      }),
    ).rejects.toThrow("non");
    expect(xs(db)).toEqual([1]);
    expect(
      await transaction(db, async (tx) => {
        await insert(tx, 4);
        return "ok";
      }),
    ).toBe("ok");
    expect(xs(db)).toEqual([1, 4]);
  });

  test("the ordinary handle used inside a transaction is a programming error", async () => {
    const db = table();
    const outcome = await transaction(db, async () => {
      await insert(db, 1);
    }).catch((e) => e);
    expect(misuse(outcome)).toBe(true);
    expect(xs(db)).toEqual([]);
    // A transaction opened with the ordinary handle from inside one is the same mistake.
    const nested = await transaction(db, () => transaction(db, async () => {})).catch((e) => e);
    expect(nested).toBeInstanceOf(Error);
  });

  test("a transaction's handle used after its end is refused", async () => {
    const db = table();
    let kept!: Db;
    await transaction(db, async (tx) => {
      kept = tx;
    });
    expect(misuse(await insert(kept, 1).catch((e) => e))).toBe(true);
    expect(xs(db)).toEqual([]);
  });

  test("a nested transaction is a savepoint: it rolls back alone", async () => {
    const db = table();
    await transaction(db, async (tx) => {
      await insert(tx, 1);
      await expect(
        transaction(tx, async (inner) => {
          await insert(inner, 2);
          throw new Error("intérieur");
        }),
      ).rejects.toThrow("intérieur");
      await transaction(tx, (inner) => insert(inner, 3));
    });
    expect(xs(db)).toEqual([1, 3]);
  });

  test("two transactions never interleave: the second starts after the first commits", async () => {
    const db = table();
    const order: string[] = [];
    const g = gate();
    const first = transaction(db, async (tx) => {
      order.push("a:start");
      await insert(tx, 1);
      await g.opened;
      order.push("a:end");
    });
    const second = transaction(db, async (tx) => {
      order.push("b:start");
      await insert(tx, 2);
    });
    await Bun.sleep(5);
    g.open();
    await Promise.all([first, second]);
    expect(order).toEqual(["a:start", "a:end", "b:start"]);
    expect(xs(db)).toEqual([1, 2]);
  });
});
