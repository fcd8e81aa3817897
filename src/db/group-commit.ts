import { type Db, dialectOf } from "./client.ts";
import { transaction } from "./transaction.ts";

/**
 * Group commit for hot write paths. With synchronous=FULL every commit is an
 * fsync (several ms on a real disk) that blocks the event loop; 50 final
 * answers landing together would wait on 50 fsyncs in a row. Writes queued
 * here run together in one transaction, one after the other, each in its own
 * savepoint (one failing write rolls back alone and rejects only its caller),
 * so a burst costs one fsync. Writes queued while a batch commits form the
 * next. Each write gets the batch's transaction handle and uses only it.
 *
 * On PostgreSQL each write is its own transaction: its commit waits on the
 * database server, not on this process's event loop, and the pool runs
 * several at once. At READ COMMITTED (transaction.ts, TransactionOptions):
 * the writes queued here are the run's (claim and charge, events, answer or
 * failure with its refund), each only conditional writes and reads of rows it
 * locked first; a write queued here must stay so.
 */
export type GroupCommit = { run<T>(write: (tx: Db) => Promise<T>): Promise<T> };

type Pending = { write: (tx: Db) => Promise<unknown>; resolve(v: unknown): void; reject(e: unknown): void };

export function createGroupCommit(db: Db): GroupCommit {
  if (dialectOf(db) === "postgres") return { run: (write) => transaction(db, write, { isolation: "read committed" }) };
  let queue: Pending[] = [];
  let scheduled = false;

  const flush = async () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await transaction(db, async (tx) => {
        for (const p of batch) {
          try {
            outcomes.push({ ok: true, value: await transaction(tx, p.write) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of the batch is stored.
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  };

  return {
    run<T>(write: (tx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}
