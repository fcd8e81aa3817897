import { type AiCallLog, insertAiCalls } from "../ai/ai-calls.queries.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { type QuotaSource, refundOneQuery } from "../users/quota.queries.ts";
import { failRunWhenPossible } from "./final-write.ts";
import type { LiveRun } from "./live-run.ts";
import { deleteRun, findRunById, holdsRun, releaseCharge, type RunRow } from "./runs.queries.ts";

/**
 * A run POST /chat started with the clarification pre-pass (`start_run`,
 * src/chat/chat.service.ts) is dropped when the clarifier asks a precision:
 * its abort switch is thrown with this reason, its upstream calls are
 * aborted at once, and the run leaves nothing behind but the costs of those
 * calls (ai_calls, written as each call ends): refunded, no message, no run
 * row, so the turn goes on with the clarification as if no run had started.
 * Not a user's stop: a stop keeps what was written and ends the turn.
 */
const DROPPED_FOR_CLARIFICATION = "dropped-for-clarification";

export function droppedForClarification(live: LiveRun): boolean {
  return live.abort.signal.aborted && live.abort.signal.reason === DROPPED_FOR_CLARIFICATION;
}

/**
 * Drops the run and waits for it to end; true when it left no trace. False
 * when it cannot be dropped: it is not carried out here, or it had already
 * ended (answered, stopped or failed): its outcome then stands.
 */
export async function dropRun(deps: Deps, run: RunRow): Promise<boolean> {
  const live = deps.ai.live.get(run.id);
  if (!live || live.finished || live.abort.signal.aborted) return false;
  live.abort.abort(DROPPED_FOR_CLARIFICATION);
  await live.result?.catch(() => {});
  return (await findRunById(deps.db, run.id)) === undefined;
}

type Dropped = { userId: number; run: RunRow; source: QuotaSource; live: LiveRun; unwritten: AiCallLog[] };

/**
 * The end of a dropped run (final-processing.ts): the request given back and
 * the run's row deleted in one transaction, the costs not yet written kept.
 * A client that had joined it (an API client's /process during the
 * pre-pass) gets a `failed` event RUN_DROPPED_FOR_CLARIFICATION, refunded.
 */
export async function endDroppedRun(deps: Deps, { userId, run, source, live, unwritten }: Dropped): Promise<never> {
  const code = "RUN_DROPPED_FOR_CLARIFICATION";
  const failed = live.record("failed", { code, detail: new AppError(code).message, refunded: true, answers: [] });
  await failRunWhenPossible(deps, run.id, () =>
    deps.ai.writes.run(async (tx) => {
      await insertAiCalls(tx, unwritten);
      if (!(await holdsRun(tx, run.id, deps.ai.serverId))) return;
      if (await releaseCharge(tx, run.id, deps.ai.serverId)) await refundOneQuery(tx, userId, source, deps.clock.now());
      await deleteRun(tx, run.id);
    }),
  );
  live.publish(failed);
  throw new AppError(code);
}
