import type { Db } from "../db/client.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { type ApiRequestRow, findApiRequest, insertApiRequest, latestRunOf, type RequestKey, retakeApiRequest } from "./api-requests.queries.ts";

/** How long a finished answer nobody read waits for the retry of the client that asked it. */
export const JOIN_WINDOW_MS = 10 * MINUTE;

export type AskedKey = RequestKey & { idempotent: boolean };

/**
 * Whether a request with this key joins the run of `row` rather than
 * starting one: its run is still going (or not yet claimed), or it ended in
 * the last 10 minutes and its answer was not delivered (with an
 * Idempotency-Key: delivered or not). A run that failed within the window is
 * run again in the same conversation (the failed one was refunded).
 */
export async function joinable(db: Db, row: ApiRequestRow, key: AskedKey, now: Date): Promise<boolean> {
  const run = await latestRunOf(db, row.conversationId);
  const recent = (at: Date | null) => at !== null && now.getTime() - at.getTime() < JOIN_WINDOW_MS;
  if (!run) return recent(row.createdAt);
  if (run.status === "running") return true;
  // A stream its client cancelled (run-stop.ts) is over: the same request again is a new question.
  if (run.status === "failed" && run.error === "RUN_STOPPED") return false;
  if (!recent(run.finishedAt)) return false;
  const join = run.status === "failed" || key.idempotent || row.readAt === null;
  if (join && key.idempotent && row.bodyHash !== key.bodyHash) throw new AppError("API_IDEMPOTENCY_REUSED", undefined, {}, { param: "Idempotency-Key" });
  return join;
}

/** The request already asked that this one joins, if any. */
export async function findJoinable(db: Db, key: AskedKey, now: Date): Promise<ApiRequestRow | undefined> {
  const row = await findApiRequest(db, key);
  return row && (await joinable(db, row, key, now)) ? row : undefined;
}

/** Thrown inside the transaction that stores a question when an identical one got there first: it is rolled back and joined. */
export class JoinInstead extends Error {
  constructor(readonly row: ApiRequestRow) {
    super("joined");
  }
}

/**
 * Records the key for the conversation just stored (in its transaction).
 * Another request holding it that may be joined wins: JoinInstead rolls the
 * new conversation back. One that may no longer be joined is moved here.
 */
export async function claimRequestKey(tx: Db, key: AskedKey, conversationId: number, now: Date): Promise<ApiRequestRow> {
  const inserted = await insertApiRequest(tx, key, conversationId, now);
  if (inserted) return inserted;
  const held = (await findApiRequest(tx, key))!;
  if (await joinable(tx, held, key, now)) throw new JoinInstead(held);
  const moved = await retakeApiRequest(tx, held, key, conversationId, now);
  if (!moved) throw new JoinInstead((await findApiRequest(tx, key))!);
  return moved;
}
