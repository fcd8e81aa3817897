import type { Deps } from "../deps.ts";
import { AppError } from "../lib/errors.ts";

/** A final write that met a busy or unreachable database is tried this many times in all, this far apart. */
const FINAL_WRITE_ATTEMPTS = 3;
const FINAL_WRITE_PAUSE_MS = 500;
/** A failure that could not be written is tried again this often, for this long (then the next start or sweep does it). */
const FAILURE_RETRY_MS = 1_000;
const FAILURE_RETRY_FOR_MS = 10 * 60_000;

/**
 * The run's outcome written, retried when the database refused it (a lock
 * held by another process, a connection lost): the answer is paid for
 * upstream already, a moment's wait is worth it. An AppError is an answer of
 * the write itself (the run given up meanwhile), never retried.
 */
export async function writeOutcome<T>(deps: Deps, runId: number, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (e instanceof AppError || attempt >= FINAL_WRITE_ATTEMPTS) throw e;
      deps.log.warn("run outcome not written, tried again", { run: runId, attempt, error: e });
      await Bun.sleep(FINAL_WRITE_PAUSE_MS);
    }
  }
}

/**
 * The failure of a run (its refund, its failed state and event), written now
 * or, if the database does not answer, as soon as it does: tried again every
 * FAILURE_RETRY_MS in the background, so the conversation is not held by a
 * run nobody carries out any more. The write must be conditional on the run
 * still being this server's (a sweep or the own-orphan sweep may get there
 * first; the refund is made once). Logged at error with the run id.
 */
export async function failRunWhenPossible(deps: Deps, runId: number, write: () => Promise<void>): Promise<void> {
  try {
    await write();
    return;
  } catch (e) {
    deps.log.error("run outcome not written: the run is failed and refunded as soon as the database answers", { run: runId, error: e });
  }
  void (async () => {
    for (const end = performance.now() + FAILURE_RETRY_FOR_MS; performance.now() < end; ) {
      await Bun.sleep(FAILURE_RETRY_MS);
      try {
        await write();
        deps.log.warn("run failed and refunded once the database answered", { run: runId });
        return;
      } catch {
        // Still refused: the next attempt, or the next start or sweep.
      }
    }
    deps.log.error("run still not failed: left to the own-orphan sweep or the next start", { run: runId });
  })();
}
