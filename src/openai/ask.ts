import type { Context } from "hono";
import type { ChatTurn } from "../ai/types.ts";
import { APP_VERSION } from "../contracts/version.ts";
import type { AppEnv } from "../deps.ts";
import type { ApiKeyRow } from "../auth/api-keys.ts";
import { MINUTE } from "../lib/clock.ts";
import { consumeLimit } from "../lib/rate-limit.ts";
import { checkSpendLimits } from "../lib/spend-limit.ts";
import { type CompletionResult, complete, delivered } from "./completion.service.ts";
import type { AnswerOptions } from "./messages.ts";
import { requestKeyOf } from "./request-key.ts";
import { assertNotFailing } from "./failed-runs.ts";
import type { ApiFile } from "./api-files.ts";
import { createHash } from "node:crypto";

const sha256Bytes = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64url");
import { openStream, type StreamRun, type Write } from "./stream.ts";
import { answerPieces } from "./forward.ts";

export type V1Env = { Variables: AppEnv["Variables"] & { apiKey: ApiKeyRow } };

/**
 * Per user, whatever the key (a new key is no fresh bucket): a script looping
 * on the endpoint is stopped long before it empties the quota by mistake.
 */
const API_BURST = { windowMs: MINUTE, limit: 10 };

/** Changes with the server's version, as OpenAI's changes with its backend. */
export const SYSTEM_FINGERPRINT = `fp_unisson_${APP_VERSION}`;

/** What the engine is asked, whichever endpoint (chat completions, responses) the request came through. */
export type Asked = { question: string; context: ChatTurn[]; options: AnswerOptions; files: ApiFile[] };

/** The `unisson` object beside the answer: its conversation, who answered, who wrote the synthesis. */
export function unissonExtra(r: CompletionResult) {
  return {
    conversation_id: r.conversationId,
    models: r.models,
    missing: r.missing,
    synthesiser: r.synthesiser,
    sources: r.sources,
    notice: r.notice,
  };
}

/**
 * A /v1 question, delivered whole or as an event stream. Both join the run
 * of an identical request (completion.service.ts), count against the page's
 * per-user limits and the burst limit only when they start one (one set of
 * limits per person, docs/API.md "Limits"), and mark the answer delivered once
 * the client has it (not when it went away first: its retry gets it); with
 * `store: false` (the Responses API's), the delivered answer is not kept.
 */
export function ask(c: Context<V1Env>, asked: Asked, opts: { store?: boolean } = {}) {
  const { deps, user, apiKey, rateLimits } = c.var;
  const input = {
    ...asked,
    // The files by their hash: the same question with the same files is the same request.
    key: requestKeyOf(apiKey.id, c.req.header("idempotency-key"), { ...asked, files: asked.files.map((f) => sha256Bytes(f.bytes)) }),
    // The page's per-user limits in the same counters, then the burst limit (the app's rate-limit store, in the database), per user.
    admit: async () => {
      // First: a loop of failed runs is refused without taking from the other counters.
      await assertNotFailing(rateLimits, user.id);
      await checkSpendLimits(deps, rateLimits, user, { trialCap: true });
      await consumeLimit(rateLimits, "v1.user", String(user.id), API_BURST);
    },
    rateLimits,
  };
  return {
    async whole(): Promise<CompletionResult> {
      const r = await complete(deps, user, { ...input, signal: c.req.raw.signal });
      if (!c.req.raw.signal.aborted) await delivered(deps, user, r, opts);
      return r;
    },

    /**
     * `opened` writes the first events, once the run started (nothing of the
     * answer: stream.ts opens then, so an error before it keeps its status);
     * `delta` turns a piece of the stored answer into events; `finish` writes
     * the last ones; `done: false` leaves out the final `[DONE]`; `failed` and
     * `error` write a failure (stream.ts). Between `opened` and the answer,
     * the heartbeat's comments keep proxies from closing the connection.
     */
    async stream(
      events: Pick<StreamRun<CompletionResult>, "finish" | "done" | "error" | "failed"> & {
        opened: (write: Write) => void;
        delta: (text: string, write: Write) => void;
      },
    ): Promise<Response> {
      const abort = new AbortController();
      return await openStream({
        abort,
        request: c.req.raw.signal,
        done: events.done,
        failed: events.failed,
        error: events.error,
        heartbeatMs: deps.ai.heartbeatMs,
        run: async (write) => await complete(deps, user, { ...input, signal: abort.signal, onRun: () => events.opened(write) }),
        finish: (r, write) => {
          // The stored answer, checked whole: the deltas add up to it and nothing sent is ever taken back (forward.ts).
          for (const piece of answerPieces(r.text)) events.delta(piece, write);
          events.finish(r, write);
          if (!abort.signal.aborted) void delivered(deps, user, r, opts).catch((error) => deps.log.warn("v1: an answer not marked delivered", { error }));
        },
      });
    },
  };
}
