import { frOps } from "../i18n/fr-ops.ts";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { tableExists } from "../db/health.ts";
import { first, transaction } from "../db/transaction.ts";
import { serverLease } from "../db/schema/index.ts";
import { RefusedError } from "../lib/errors.ts";

/** The heartbeat renews the lease this often; a holder silent for LEASE_TTL_MS has lost it. */
export const HEARTBEAT_MS = 10_000;
export const LEASE_TTL_MS = 30_000;

export type LeaseRow = typeof serverLease.$inferSelect;
export type Lease = { holder: string; acquiredAt: Date };

/** Raised when another live server holds the database; its message is the one line `serve` prints. */
export class LeaseHeldError extends RefusedError {}

/**
 * Whether the process that wrote this lease can still be running. Same host:
 * ask the kernel (a kill -9 leaves an unexpired lease behind, and the restart
 * must not wait for it); a holder with our own pid is a previous life of this
 * container (Docker restarts at pid 1 again). Another host: trust the expiry.
 */
function holderAlive(row: LeaseRow, now: Date): boolean {
  if (row.expiresAt.getTime() <= now.getTime()) return false;
  if (row.hostname !== hostname()) return true;
  if (row.pid === process.pid) return false;
  try {
    process.kill(row.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A database from before the lease has no lease table until its migration. */
export function hasLeaseTable(db: Db): Promise<boolean> {
  return tableExists(db, "server_lease");
}

export async function readLease(db: Db): Promise<LeaseRow | undefined> {
  if (!(await hasLeaseTable(db))) return undefined;
  return await first(db.select().from(serverLease).where(eq(serverLease.id, 1)));
}

/** The lease of a live holder, or undefined when the database is free to take. */
export async function liveLease(db: Db, now: Date): Promise<LeaseRow | undefined> {
  const row = await readLease(db);
  return row && holderAlive(row, now) ? row : undefined;
}

function describe(row: LeaseRow, now: Date): string {
  const ago = Math.max(0, Math.round((now.getTime() - row.heartbeatAt.getTime()) / 1000));
  return frOps.lease.holder(row.pid, row.hostname, row.url, ago);
}

/** Takes the database for this process, or throws LeaseHeldError naming the live holder. */
export async function acquireLease(db: Db, now: Date, url: string | null): Promise<Lease> {
  const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  return await transaction(db, async (tx) => {
    const current = await liveLease(tx, now);
    if (current) {
      throw new LeaseHeldError(frOps.lease.held(describe(current, now)));
    }
    const values = {
      holder,
      hostname: hostname(),
      pid: process.pid,
      url,
      acquiredAt: now,
      heartbeatAt: now,
      expiresAt: new Date(now.getTime() + LEASE_TTL_MS),
    };
    await tx
      .insert(serverLease)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: serverLease.id, set: values });
    return { holder, acquiredAt: now };
  });
}

/** Extends the lease; false when someone else holds it now (this process slept past its expiry). */
export async function renewLease(db: Db, lease: Lease, now: Date): Promise<boolean> {
  const r = await db
    .update(serverLease)
    .set({ heartbeatAt: now, expiresAt: new Date(now.getTime() + LEASE_TTL_MS) })
    .where(eq(serverLease.holder, lease.holder))
    .returning({ id: serverLease.id });
  return r.length === 1;
}

/** Frees the database at a clean stop, so the next start needs no liveness guess. */
export async function releaseLease(db: Db, lease: Lease): Promise<void> {
  await db.delete(serverLease).where(eq(serverLease.holder, lease.holder));
}

/** Whether this process holds the lease right now (readiness). */
export async function holdsLease(db: Db, lease: Lease | undefined, now: Date): Promise<boolean> {
  const row = await readLease(db);
  return !!lease && row?.holder === lease.holder && row.expiresAt.getTime() > now.getTime();
}

/**
 * Whose runs are in flight: "ours" (this process holds the lease), "other"
 * (a live server does: its runs are not ours to touch), "none".
 */
export async function leaseOwner(db: Db, lease: Lease | undefined, now: Date): Promise<"ours" | "other" | "none"> {
  const row = await readLease(db);
  if (!row) return "none";
  if (lease && row.holder === lease.holder) return "ours";
  return holderAlive(row, now) ? "other" : "none";
}
