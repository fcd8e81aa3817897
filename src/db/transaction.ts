import { type Db, dialectOf, handleOf } from "./client.ts";
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
 *
 * On PostgreSQL it is drizzle's transaction on a connection of the pool
 * (nested: a savepoint), SERIALIZABLE, since other servers' transactions run
 * at the same time: every read-then-write body behaves as if the
 * transactions ran one after the other, as on SQLite. A transaction that
 * PostgreSQL aborts for a conflict (40001) or a deadlock (40P01) is run again
 * from the start, a few times: a body is only statements, so running it again
 * is safe (docs/DECISIONS.md, "Transactions on PostgreSQL").
 */
export async function transaction<T>(db: Db, body: (tx: Db) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
  if (dialectOf(db) === "postgres") return pgTransaction(db as unknown as PgTransactional, body, opts.isolation ?? "serializable");
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

/**
 * `isolation: "read committed"` (PostgreSQL only; SQLite has one writer at a
 * time anyway) for a body audited to be safe without SERIALIZABLE: only
 * conditional writes (`UPDATE … WHERE … RETURNING`, `INSERT … ON CONFLICT`)
 * and reads of rows it first locked (`forUpdate`). Under SERIALIZABLE,
 * PostgreSQL tracks what a transaction read by whole pages of small tables, so
 * concurrent answers writing different rows still aborted each other until the
 * retries ran out (the scaling bench: one answer in six refused with 16 users).
 */
export type TransactionOptions = { isolation?: "serializable" | "read committed" };

type PgTransactional = {
  transaction<T>(body: (tx: unknown) => Promise<T>, config?: { isolationLevel: "serializable" | "read committed" }): Promise<T>;
  /** Present on a transaction's handle only. */
  rollback?: unknown;
};

// Enough for a burst (reliability/concurrency: 500 final processings at once ran out of 8 attempts, a 503 for the user).
const PG_ATTEMPTS = 20;

async function pgTransaction<T>(db: PgTransactional, body: (tx: Db) => Promise<T>, isolationLevel: "serializable" | "read committed"): Promise<T> {
  // Inside a transaction: a savepoint, retried (if need be) with the whole outer transaction.
  if (typeof db.rollback === "function") return db.transaction((tx) => body(tx as Db));
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => body(tx as Db), { isolationLevel });
    } catch (e) {
      if (attempt >= PG_ATTEMPTS || !isRetryable(e)) throw e;
      // A random wait growing with the attempts (2, 4, 8 ... at most 250 ms), so the transactions that collided do not collide again.
      await Bun.sleep(Math.random() * Math.min(250, 2 ** attempt));
    }
  }
}

/** PostgreSQL's serialization failure or deadlock, also when drizzle wrapped the driver's error (its `cause`). */
function isRetryable(e: unknown): boolean {
  for (let err = e, i = 0; err && i < 5; err = (err as { cause?: unknown }).cause, i++) {
    const errno = String((err as { errno?: unknown }).errno);
    if (errno === "40001" || errno === "40P01") return true;
  }
  return false;
}

/**
 * A select that locks the rows it reads until the transaction ends (SELECT
 * ... FOR UPDATE) on PostgreSQL, where another server may change them between
 * the read and the write; unchanged on SQLite, whose IMMEDIATE transaction
 * already holds the only write lock. Use on the row a transaction reads
 * before deciding what to write (the user to charge, the run to claim).
 */
export function forUpdate<Q extends PromiseLike<unknown>>(query: Q): Q {
  const lock = (query as unknown as { for?: (strength: "update") => Q }).for;
  return typeof lock === "function" ? lock.call(query, "update") : query;
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
