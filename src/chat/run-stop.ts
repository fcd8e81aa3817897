import { insertAiCalls, type AiCallLog } from "../ai/ai-calls.queries.ts";
import { dialectOf } from "../db/client.ts";
import { listenRunStops, notifyRunStop } from "../db/pg/run-stop-channel.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";
import { type QuotaSource, refundOneQuery } from "../users/quota.queries.ts";
import { appendMessages } from "./chat.queries.ts";
import { ownedConversation } from "./owned-conversation.ts";
import { toPublicMessage } from "./chat.view.ts";
import { failRunWhenPossible } from "./final-write.ts";
import type { LiveRun, RunEvent } from "./live-run.ts";
import { failRun, findRunById, holdsRun, releaseCharge, type RunRow, runningRunOf } from "./runs.queries.ts";

/**
 * « Arrêter » (docs/API.md, POST /conversation/{id}/stop). The run's abort
 * switch is thrown with this reason: its upstream calls are aborted at once
 * (every call takes the run's AbortSignal), the engine gives up, and the run
 * ends « arrêtée par l'utilisateur »: refunded, what the models wrote kept as
 * a `stopped_response` message that ends the turn, so the next message is a
 * new question. A run whose answer was already being stored is not undone:
 * that answer stays, and is charged.
 */
export const USER_STOP = "user-stop";

/** How long POST /stop waits for the run to end before answering anyway (202: the stop was asked). */
const STOP_WAIT_MS = 5_000;
const STOP_POLL_MS = 50;
/** A stop sent to another server is sent again this often while its run goes on (a notification lost in a reconnect). */
const STOP_RESEND_MS = 1_000;

export function stoppedByUser(live: LiveRun): boolean {
  return live.abort.signal.aborted && live.abort.signal.reason === USER_STOP;
}

/** Stops the run if this process carries it out; false when it is not here (another server, or not yet in memory). */
export function stopHere(deps: Deps, runId: number): boolean {
  const live = deps.ai.live.get(runId);
  if (!live) return false;
  if (!live.finished && !live.abort.signal.aborted) live.abort.abort(USER_STOP);
  return true;
}

/**
 * On PostgreSQL, a server listens for stop requests from the first run it
 * carries out on (one LISTEN registration per database handle), so that a
 * stop sent to any server reaches the one running it.
 */
const listening = new WeakSet<object>();
export function listenForStops(deps: Deps): void {
  if (dialectOf(deps.db) !== "postgres" || listening.has(deps.db)) return;
  listening.add(deps.db);
  listenRunStops(deps.db, (runId) => stopHere(deps, runId)).catch((error) => {
    listening.delete(deps.db);
    deps.log.warn("stop requests not listened to: the next run tries again", { error });
  });
}

export type StopResult = { conversation_id: number; status: "stopped" | "answered" | "stopping"; refunded: boolean };

/**
 * POST /conversation/{id}/stop: stops the conversation's running run,
 * wherever it runs, and answers once it ended (the conversation then takes
 * the next message at once). 409 when nothing runs.
 */
export async function stopConversationRun(deps: Deps, userId: number, conversationId: number): Promise<StopResult> {
  const conversation = await ownedConversation(deps, userId, conversationId);
  const run = await runningRunOf(deps.db, conversation.id);
  if (!run) throw new AppError("NO_RUN_TO_STOP");
  const ended = await stopAndWait(deps, run);
  const status = !ended ? "stopping" : ended.status === "done" ? "answered" : "stopped";
  return { conversation_id: conversation.id, status, refunded: status === "stopped" };
}

async function stopAndWait(deps: Deps, run: RunRow): Promise<RunRow | undefined> {
  let notifiedAt = -Infinity;
  for (const end = performance.now() + STOP_WAIT_MS; performance.now() < end; await Bun.sleep(STOP_POLL_MS)) {
    // Asked again at each turn: a run just claimed is in memory a moment after its row is committed.
    if (!stopHere(deps, run.id) && dialectOf(deps.db) === "postgres" && performance.now() - notifiedAt >= STOP_RESEND_MS) {
      notifiedAt = performance.now();
      await notifyRunStop(deps.db, run.id);
    }
    const now = await findRunById(deps.db, run.id);
    if (now?.status !== "running") return now;
  }
  return undefined;
}

/** The synthesis text written so far in the run's last attempt (its deltas since the last synthesis_started). */
function partialSynthesis(events: readonly RunEvent[]): string {
  const start = events.findLastIndex((e) => e.type === "synthesis_started");
  if (start < 0) return "";
  return events
    .slice(start + 1)
    .filter((e) => e.type === "synthesis_delta")
    .map((e) => String(e.data.text ?? ""))
    .join("");
}

export type PartialAnswer = { name: string; text: string };

/**
 * The models that had written without finishing when the run stopped: each
 * one's text so far (bounded like the live text, MODEL_TEXT_MAX_CHARS), in
 * the run's order of models. A model whose answer is among the finished
 * ones is not repeated.
 */
function partialAnswers(live: LiveRun, answers: ReadonlyArray<{ name: string }>): PartialAnswer[] {
  const finished = new Set(answers.map((a) => a.name));
  const started = live.events.find((e) => e.type === "run_started");
  const order = (started?.data.models as string[] | undefined) ?? [];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...live.texts.written()]
    .filter(([name, text]) => text && !finished.has(name))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, text]) => ({ name, text }));
}

type Stopped = {
  userId: number;
  run: RunRow;
  source: QuotaSource;
  live: LiveRun;
  answers: Array<{ name: string; answer: string }>;
  unwritten: AiCallLog[];
};

/**
 * Ends a run the user stopped: refund, the `stopped_response` message (the
 * finished answers, the unfinished ones so far and the synthesis so far), the run failed with
 * RUN_STOPPED, and the `failed` event carrying that message, told once
 * committed. Throws RUN_STOPPED for a JSON caller.
 */
export async function endStoppedRun(deps: Deps, { userId, run, source, live, answers, unwritten }: Stopped): Promise<never> {
  const { clock } = deps;
  const partial = partialSynthesis(live.events);
  const partialAnswersSoFar = partialAnswers(live, answers);
  const detail = new AppError("RUN_STOPPED").message;
  const stopped = { code: "RUN_STOPPED", detail, refunded: true, answers, partial_answers: partialAnswersSoFar };
  let failed = live.record("failed", stopped);
  await failRunWhenPossible(deps, run.id, () =>
    deps.ai.writes.run(async (tx) => {
      await insertAiCalls(tx, unwritten);
      if (!(await holdsRun(tx, run.id, deps.ai.serverId))) return;
      if (await releaseCharge(tx, run.id, deps.ai.serverId)) await refundOneQuery(tx, userId, source, clock.now());
      const [message] = await appendMessages(
        tx,
        run.conversationId,
        [
          {
            sender: "assistant",
            messageType: "stopped_response",
            content: partial,
            resultData: { stopped: true, answers, partial_answers: partialAnswersSoFar, partial_synthesis: partial || null },
          },
        ],
        clock.now(),
      );
      failed = live.record("failed", { ...stopped, message: toPublicMessage(message!) });
      await failRun(tx, run.id, "RUN_STOPPED", clock.now(), live.storedEvents());
    }),
  );
  live.publish(failed);
  throw new AppError("RUN_STOPPED", undefined, {}, answers.length > 0 ? { answers } : undefined);
}
