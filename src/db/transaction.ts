import { type Db, handleOf } from "./client.ts";
import { acquire, enterTransaction, type TxScope, txContext } from "./connection.ts";

/**
 * Runs `body` in one transaction and gives it the transaction's handle `tx`:
 * every statement of the body goes through `tx` (the ordinary handle throws
 * there, see connection.ts). Commits when `body` resolves, rolls back when it
 * throws. Called with a `tx`, it nests: a savepoint that rolls back alone.
 *
 * On SQLite the transaction is IMMEDIATE (read-then-write paths take the
 * write lock up front: no SQLITE_BUSY upgrade deadlock) and holds the
 * process's one connection: other requests' statements wait for its end, so
 * a body awaits nothing but its own statements (never the network).
 */
export async function transaction<T>(db: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  const h = handleOf(db);
  if (h.kind === "transaction") return savepoint(db, body);
  const scope: TxScope = { conn: h.conn, open: true, depth: 0 };
  const outer = txContext.getStore();
  if (outer?.open && outer.conn === h.conn) {
    throw new Error("transaction() appelée avec la base ordinaire à l'intérieur d'une transaction : passez son handle (tx).");
  }
  const release = await acquire(h.conn, scope);
  const sqlite = h.conn.sqlite;
  try {
    return await txContext.run(scope, async () => {
      sqlite.run("BEGIN IMMEDIATE");
      try {
        const result = await body(h.tx);
        sqlite.run("COMMIT");
        return result;
      } catch (e) {
        if (sqlite.inTransaction) sqlite.run("ROLLBACK");
        throw e;
      }
    });
  } finally {
    scope.open = false;
    release();
  }
}

async function savepoint<T>(tx: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  const { conn } = handleOf(tx);
  enterTransaction(conn);
  const scope = txContext.getStore()!;
  const name = `sp${++scope.depth}`;
  conn.sqlite.run(`SAVEPOINT ${name}`);
  try {
    const result = await body(tx);
    conn.sqlite.run(`RELEASE ${name}`);
    return result;
  } catch (e) {
    conn.sqlite.run(`ROLLBACK TO ${name}`);
    conn.sqlite.run(`RELEASE ${name}`);
    throw e;
  } finally {
    scope.depth--;
  }
}

/** The first row of a query (or of written rows), or undefined. Callers add `.limit(1)` where several rows may match. */
export async function first<T>(rows: PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}

/** The one row an INSERT ... RETURNING wrote (an insert that wrote nothing has thrown already). */
export async function one<T>(rows: PromiseLike<T[]>): Promise<T> {
  const [row] = await rows;
  if (row === undefined) throw new Error("INSERT ... RETURNING n'a rendu aucune ligne");
  return row;
}
