import type { Db } from "../db/client.ts";
import { MINUTE } from "../lib/clock.ts";
import { AppError } from "../lib/errors.ts";
import { lastingFailure } from "./failed-runs.ts";
import { type ApiRequestRow, findApiRequest, insertApiRequest, latestRunOf, type RequestKey, retakeApiRequest } from "./api-requests.queries.ts";

/** How long a finished answer nobody read waits for the retry of the client that asked it. */
export const JOIN_WINDOW_MS = 10 * MINUTE;

export type AskedKey = RequestKey & { idempotent: boolean };

/**
 * What a request with this key does with the request `row` asked earlier:
 * - "join" its run: still going (or not yet claimed), or ended in the last
 *   10 minutes with its answer not delivered (with an Idempotency-Key:
 *   delivered or not);
 * - "refuse" with its stored failure: its run failed in the last 10 minutes
 *   for a reason the same request meets again (failed-runs.ts), so it is not
 *   run again;
 * - "rerun" it in the same conversation: its run failed lately for a reason
 *   that may pass (an outage), and the new run counts in the limits like any;
 * - null: it is a new question.
 */
export type NextStep = "join" | "refuse" | "rerun";

export async function joinable(db: Db, row: ApiRequestRow, key: AskedKey, now: Date): Promise<NextStep | null> {
  const run = await latestRunOf(db, row.conversationId);
  const recent = (at: Date | null) => at !== null && now.getTime() - at.getTime() < JOIN_WINDOW_MS;
  if (!run) return recent(row.createdAt) ? "join" : null;
  if (run.status === "running") return "join";
  // A stream its client cancelled (run-stop.ts) is over: the same request again is a new question.
  if (run.status === "failed" && run.error === "RUN_STOPPED") return null;
  if (!recent(run.finishedAt)) return null;
  const join = run.status === "failed" || key.idempotent || row.readAt === null;
  if (join && key.idempotent && row.bodyHash !== key.bodyHash) throw new AppError("API_IDEMPOTENCY_REUSED", undefined, {}, { param: "Idempotency-Key" });
  if (run.status === "failed") return lastingFailure(run) ? "refuse" : "rerun";
  return join ? "join" : null;
}

export type Earlier = { row: ApiRequestRow; next: NextStep };

/** The request already asked that this one follows, and how (see `joinable`), if any. */
export async function findJoinable(db: Db, key: AskedKey, now: Date): Promise<Earlier | undefined> {
  const row = await findApiRequest(db, key);
  const next = row ? await joinable(db, row, key, now) : null;
  return row && next ? { row, next } : undefined;
}

/** Thrown inside the transaction that stores a question when an identical one got there first: it is rolled back and followed. */
export class JoinInstead extends Error {
  constructor(readonly earlier: Earlier) {
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
  const next = await joinable(tx, held, key, now);
  if (next) throw new JoinInstead({ row: held, next });
  const moved = await retakeApiRequest(tx, held, key, conversationId, now);
  if (!moved) throw new JoinInstead({ row: (await findApiRequest(tx, key))!, next: "join" });
  return moved;
}
