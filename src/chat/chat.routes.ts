import { Hono } from "hono";
import { aiStatus } from "../ai/engine.ts";
import { shownCouncil } from "../council/council-runtime.ts";
import { requireUser } from "../auth/require-user.ts";
import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";
import { compressedEvents } from "../lib/compress-events.ts";
import { spendLimit } from "../lib/spend-limit.ts";
import { validate } from "../lib/validate.ts";
import { conversationEvents, lastEventId, runStream, SSE_HEADERS } from "./run-events.ts";
import { exportConversation } from "./conversation-export.ts";
import { boundedStream } from "./stream-slots.ts";
import { limitedExport } from "../lib/export-limit.ts";
import { history } from "./history.ts";
import { resultOf, startRun } from "./final-processing.ts";
import {
  chatBody,
  chatStopBody,
  conversationParam,
  editBody,
  exportQuery,
  historyQuery,
  processBody,
  renameBody,
  versionBody,
  versionParam,
} from "./chat.schemas.ts";
import { conversationMessages, deleteConversation, renameConversation, sendMessage } from "./chat.service.ts";
import { stopConversationRun } from "./run-stop.ts";
import { stopAsk } from "./pending-asks.ts";
import { AppError } from "../lib/errors.ts";
import { askAgain, switchVersion } from "./versions.ts";

/**
 * /api/unisson. /status and /models are public: they reveal only which
 * models answer, and they read cached state (no upstream call; the council
 * is read again at most every second, src/council/council-runtime.ts).
 */
export const chatRoutes = new Hono<AppEnv>()
  .get("/status", async (c) => c.json(aiStatus(c.var.deps.ai, await shownCouncil(c.var.deps))))
  .get("/models", async (c) => {
    const council = await shownCouncil(c.var.deps);
    const models = council.members.map((m) => ({ name: m.name, provider: m.providerLabel, specialty: m.specialty }));
    return c.json({ models, ...aiStatus(c.var.deps.ai, council) });
  })
  .post("/chat", requireUser, validate("json", chatBody), spendLimit({ trialCap: true }), async (c) => {
    return c.json(await sendMessage(c.var.deps, c.var.user, c.req.valid("json")));
  })
  // « Arrêter » before /chat has answered (the run it started, while the clarifier decides): 200, or 409 when that ask is over.
  .post("/chat/stop", requireUser, validate("json", chatStopBody), async (c) => {
    const { ask_id } = c.req.valid("json");
    if (!stopAsk(c.var.deps, c.var.user.id, ask_id)) throw new AppError("NO_ASK_TO_STOP");
    return c.json({ ask_id, stopped: true });
  })
  // JSON by default (the spec's client); with Accept: text/event-stream, the same run's events.
  .post("/process", requireUser, validate("json", processBody), spendLimit({ trialCap: false }), async (c) => {
    const { deps, user } = c.var;
    const run = await startRun(deps, user, c.req.valid("json").conversation_id);
    if (wantsEvents(c.req.header("accept"))) return eventsAnswer(c, runStream(deps, run, lastEventId(c.req.header("last-event-id"))));
    return c.json(await resultOf(deps, run));
  })
  .get("/conversation/:id/events", requireUser, validate("param", conversationParam), async (c) => {
    // Bounded per user and per server (stream-slots.ts); /process streams are bounded by the spend limits instead.
    const stream = await boundedStream(c, () =>
      conversationEvents(c.var.deps, c.var.user.id, c.req.valid("param").id, lastEventId(c.req.header("last-event-id"))),
    );
    return eventsAnswer(c, stream);
  })
  // « Arrêter »: 200 once the run ended (stopped, or answered just before), 202 if it is still ending.
  .post("/conversation/:id/stop", requireUser, validate("param", conversationParam), async (c) => {
    const result = await stopConversationRun(c.var.deps, c.var.user.id, c.req.valid("param").id);
    return c.json(result, result.status === "stopping" ? 202 : 200);
  })
  // Edit and ask again, « Nouvelle réponse »: a new version of the last question, then POST /process as for any question.
  .post("/conversation/:id/edit", requireUser, validate("param", conversationParam), validate("json", editBody), spendLimit({ trialCap: false }), async (c) => {
    return c.json(await askAgain(c.var.deps, c.var.user, c.req.valid("param").id, c.req.valid("json").message));
  })
  .post("/conversation/:id/regenerate", requireUser, validate("param", conversationParam), spendLimit({ trialCap: false }), async (c) => {
    return c.json(await askAgain(c.var.deps, c.var.user, c.req.valid("param").id));
  })
  .put("/conversation/:id/versions/:group", requireUser, validate("param", versionParam), validate("json", versionBody), async (c) => {
    const { id, group } = c.req.valid("param");
    return c.json(await switchVersion(c.var.deps, c.var.user.id, id, group, c.req.valid("json").version));
  })
  .get("/history", requireUser, validate("query", historyQuery), async (c) => c.json(await history(c.var.deps, c.var.user.id, c.req.valid("query"))))
  .get("/conversation/:id", requireUser, validate("param", conversationParam), async (c) => {
    return c.json(await conversationMessages(c.var.deps, c.var.user.id, c.req.valid("param").id));
  })
  .get("/conversation/:id/export", requireUser, validate("param", conversationParam), validate("query", exportQuery), async (c) => {
    const file = await limitedExport(c, "conversation", () =>
      exportConversation(c.var.deps, c.var.user.id, c.req.valid("param").id, c.req.valid("query").format),
    );
    return c.body(file.body, 200, { "Content-Type": file.type, "Content-Disposition": `attachment; filename="${file.name}"`, "Cache-Control": "no-store" });
  })
  .patch("/conversation/:id", requireUser, validate("param", conversationParam), validate("json", renameBody), async (c) => {
    return c.json(await renameConversation(c.var.deps, c.var.user.id, c.req.valid("param").id, c.req.valid("json").title));
  })
  .delete("/conversation/:id", requireUser, validate("param", conversationParam), async (c) => {
    return c.json(await deleteConversation(c.var.deps, c.var.user.id, c.req.valid("param").id));
  });

function wantsEvents(accept: string | undefined): boolean {
  return /\btext\/event-stream\b/.test(accept ?? "");
}

/** A run's live events, compressed for a client that accepts it (compress-events.ts). */
function eventsAnswer(c: Context<AppEnv>, stream: ReadableStream<Uint8Array>) {
  const { body, headers } = compressedEvents(c.req.header("accept-encoding"), stream);
  return c.body(body, 200, { ...SSE_HEADERS, ...headers });
}
