import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { pgTables } from "../schema/pg.ts";
import { selectTables } from "../schema/index.ts";

/**
 * How many connections one server keeps to PostgreSQL: a transaction holds
 * one for its whole body (charging a request, a webhook), other requests take
 * the others. Ten per server stays far below PostgreSQL's default 100 with
 * several servers and the CLI.
 */
const POOL_SIZE = 10;

export type PostgresDb = ReturnType<typeof drizzle<typeof pgTables>>;

// Module state: each open PostgreSQL handle's client (pool), to close it and to run raw SQL beside drizzle.
const clients = new WeakMap<object, SQL>();

/**
 * Opens the application database on PostgreSQL: Bun's built-in client (a
 * pool) under drizzle's bun-sql driver, with the pg tables selected for the
 * whole process (schema/index.ts). Nothing is sent before the first query.
 */
export function openPostgres(url: string, pool: { max?: number; idleTimeout?: number } = {}): PostgresDb {
  selectTables("postgres");
  const client = new SQL({ url, max: pool.max ?? POOL_SIZE, idleTimeout: pool.idleTimeout ?? 0, connectionTimeout: 10 });
  const db = drizzle({ client, schema: pgTables });
  clients.set(db, client);
  return db;
}

/** The pool under an ordinary handle opened by openPostgres (undefined for a transaction's handle or a SQLite one). */
export function postgresClient(db: object): SQL | undefined {
  return clients.get(db);
}

type Subscription = { unlisten(): Promise<void> };
// Module state: each open handle's LISTEN subscriptions, so they can be ended together (stopListening).
const subscriptions = new WeakMap<object, Set<Subscription>>();

/**
 * LISTEN on `channel` through the handle's pool. Bun's client keeps one
 * dedicated connection for all of a pool's channels, reconnected with backoff
 * if it drops (`onListen` runs after each (re)subscription, when
 * notifications may have been missed). Returns the unsubscribe.
 */
export async function listenOn(db: object, channel: string, onPayload: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>> {
  const client = clients.get(db);
  if (!client) throw new Error("LISTEN sur une base qui n'est pas une base PostgreSQL ouverte par openPostgres");
  const subscription = await client.listen(channel, onPayload, onListen);
  let live = subscriptions.get(db);
  if (!live) subscriptions.set(db, (live = new Set()));
  live.add(subscription);
  return async () => {
    live.delete(subscription);
    await subscription.unlisten();
  };
}

/**
 * Ends every LISTEN of the handle, which closes its notification connection
 * (that connection never goes idle, unlike the pool's). The test apps call it
 * when they are done with (test/helpers/app.ts): a process that makes
 * hundreds of apps would otherwise keep one connection for each.
 */
export async function stopListening(db: object): Promise<void> {
  const live = subscriptions.get(db);
  if (!live) return;
  subscriptions.delete(db);
  await Promise.allSettled([...live].map((s) => s.unlisten()));
}

export async function closePostgres(db: object): Promise<void> {
  await stopListening(db);
  await clients.get(db)?.close();
}
