import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One SQLite connection shared by every request of the process, behind the
 * asynchronous drizzle driver. A transaction holds the connection across
 * awaits, so two rules keep other requests out of it (docs/ARCHITECTURE.md,
 * "Data layer"):
 *  - a statement issued through the ordinary handle while a transaction is
 *    open waits until it ends (else it would silently join, and be rolled
 *    back with, someone else's transaction);
 *  - inside a transaction's body only its handle may be used: a statement
 *    through the ordinary handle there is a programming error (on a database
 *    server it would run outside the transaction, on another connection; here
 *    it would wait for its own transaction: a deadlock).
 */
export type Connection = {
  sqlite: Database;
  /** Set while a transaction holds the connection. */
  holder: TxScope | null;
  /** Resolved when the current holder lets go. */
  released: Promise<void>;
  /** The end of the queue of transactions waiting for the connection. */
  tail: Promise<void>;
};

/** What a transaction's async context carries: its connection, and whether it is still open. */
export type TxScope = { conn: Connection; open: boolean; depth: number };

// Module state: the transaction whose body the current async context runs in, if any.
export const txContext = new AsyncLocalStorage<TxScope>();

export function newConnection(sqlite: Database): Connection {
  const done = Promise.resolve();
  return { sqlite, holder: null, released: done, tail: done };
}

export class TransactionMisuseError extends Error {}

/** The ordinary handle's check: a programming error inside a transaction of this connection. */
export function enterOrdinary(conn: Connection): void {
  const scope = txContext.getStore();
  if (scope?.open && scope.conn === conn) {
    throw new TransactionMisuseError("Requête passée par la base ordinaire à l'intérieur d'une transaction : utilisez le handle de la transaction (tx).");
  }
}

/** The transaction handle's check: only inside its own, still open, transaction. */
export function enterTransaction(conn: Connection): void {
  const scope = txContext.getStore();
  if (!scope?.open || scope.conn !== conn || conn.holder !== scope) {
    throw new TransactionMisuseError("Handle de transaction utilisé hors de sa transaction.");
  }
}

/** Takes the connection for one transaction; the returned function gives it back. */
export async function acquire(conn: Connection, scope: TxScope): Promise<() => void> {
  const previous = conn.tail;
  let letGo!: () => void;
  conn.tail = new Promise<void>((r) => {
    letGo = r;
  });
  await previous;
  // Statements of the ordinary handle queued before may still be waiting: they wait on.
  let freed!: () => void;
  conn.released = new Promise<void>((r) => {
    freed = r;
  });
  conn.holder = scope;
  return () => {
    conn.holder = null;
    freed();
    letGo();
  };
}
