import type { Columns } from "./columns.ts";
import type { UserTables } from "./users.ts";

export const SENDERS = ["user", "assistant"] as const;
/** `stopped_response`: what the models had written when the user stopped the run (« Arrêter »), kept and labelled. */
export const MESSAGE_TYPES = [
  "question",
  "clarification",
  "mono_clarification",
  "detail_request",
  "content_moderation",
  "final_response",
  "stopped_response",
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const CONVERSATION_SOURCES = ["web", "api"] as const;
export type ConversationSource = (typeof CONVERSATION_SOURCES)[number];

export function chatTables(c: Columns, { users }: UserTables) {
  const conversations = c.table(
    "conversations",
    {
      id: c.id(),
      userId: c
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      title: c.text("title").notNull(),
      messageCount: c.int("message_count").notNull().default(0),
      /** Where the conversation was asked: the page, or the OpenAI-compatible API (a personal key). */
      source: c.text("source", { enum: CONVERSATION_SOURCES }).notNull().default("web"),
      createdAt: c.timestamp("created_at").notNull(),
      updatedAt: c.timestamp("updated_at").notNull(),
    },
    (t) => [c.index("conversations_user_updated_idx").on(t.userId, t.updatedAt)],
  );

  /** Searched through `chat_search` on SQLite, a `search_vector` column on PostgreSQL (docs/SCALING.md, "Search"). */
  const messages = c.table(
    "messages",
    {
      id: c.id(),
      conversationId: c
        .int("conversation_id")
        .notNull()
        .references(() => conversations.id, { onDelete: "cascade" }),
      sender: c.text("sender", { enum: SENDERS }).notNull(),
      /** Null for a plain user message. */
      messageType: c.text("message_type", { enum: MESSAGE_TYPES }),
      content: c.text("content").notNull(),
      /** JSON: final_response, primary_ai, available_ais, per-model answers. */
      resultData: c.json("result_data").$type<Record<string, unknown>>(),
      createdAt: c.timestamp("created_at").notNull(),
      /**
       * Versions of the last question (edit and ask again, « Nouvelle réponse »: src/chat/versions.ts): the id of
       * the group's first user message, and this message's version in it (1, 2...). Null for a question never redone.
       */
      versionGroup: c.int("version_group"),
      version: c.int("version"),
      /** An earlier (or not shown) version: kept for the switcher, left out of the models' context, the history and exports. */
      superseded: c.flag("superseded").notNull().default(false),
    },
    (t) => [c.index("messages_conversation_idx").on(t.conversationId, t.id)],
  );

  /**
   * One row per final processing of a turn (the user message it answers):
   * the unique index makes concurrent /process calls charge once and share one answer.
   */
  const processingRuns = c.table(
    "processing_runs",
    {
      id: c.id(),
      conversationId: c
        .int("conversation_id")
        .notNull()
        .references(() => conversations.id, { onDelete: "cascade" }),
      turnMessageId: c.int("turn_message_id").notNull(),
      userId: c
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      status: c.text("status", { enum: ["running", "done", "failed"] }).notNull(),
      resultMessageId: c.int("result_message_id"),
      charged: c.flag("charged").notNull().default(false),
      /** The balance the request came from, so a run cut short by a crash is refunded at the next start. */
      chargedFrom: c.text("charged_from", { enum: ["plan", "extra"] }),
      error: c.text("error"),
      /** The run's events so far (without the synthesis text deltas), for a client that re-attaches later. */
      events: c.json("events").$type<Array<Record<string, unknown>>>(),
      createdAt: c.timestamp("created_at").notNull(),
      finishedAt: c.timestamp("finished_at"),
      /** The server process carrying the run out (its id: src/chat/run-liveness.ts), so another one knows whose it is. */
      server: c.text("server"),
      /** Refreshed by that server while the run goes on; a stale one on PostgreSQL means the server died (the sweep refunds it). */
      heartbeatAt: c.timestamp("heartbeat_at"),
    },
    (t) => [
      c.uniqueIndex("processing_runs_turn_idx").on(t.conversationId, t.turnMessageId),
      // The cleanup's question "was this file read by a run since it came?" from the index: `created_at` is stored
      // after `events` (tens of KB), which SQLite walks to reach it (0.15-0.2 s a cleanup for 2,000 runs, 7-16 ms with it).
      c.index("processing_runs_conversation_idx").on(t.conversationId, t.createdAt),
    ],
  );

  /**
   * One row per question asked through /v1, so that a client's retries join
   * its run instead of starting another (src/openai/joined-runs.ts): keyed by
   * the API key and the request (its Idempotency-Key, or a hash of its
   * messages and parameters). `read_at` is set once the answer was delivered.
   */
  const apiRequests = c.table(
    "api_requests",
    {
      id: c.id(),
      apiKeyId: c.int("api_key_id").notNull(),
      requestKey: c.text("request_key").notNull(),
      /** The hash of the messages and parameters: an Idempotency-Key sent again with another request is refused. */
      bodyHash: c.text("body_hash").notNull(),
      conversationId: c
        .int("conversation_id")
        .notNull()
        .references(() => conversations.id, { onDelete: "cascade" }),
      createdAt: c.timestamp("created_at").notNull(),
      readAt: c.timestamp("read_at"),
    },
    (t) => [c.uniqueIndex("api_requests_key_idx").on(t.apiKeyId, t.requestKey)],
  );

  /** Every upstream AI call: latency, tokens and outcome (answers, synthesis, clarification, probes, peer review rankings). */
  const aiCalls = c.table(
    "ai_calls",
    {
      id: c.id(),
      userId: c.int("user_id").references(() => users.id, { onDelete: "set null" }),
      conversationId: c.int("conversation_id").references(() => conversations.id, { onDelete: "set null" }),
      model: c.text("model").notNull(),
      provider: c.text("provider").notNull(),
      // web_search and web_fetch (issue 45): the council's searches and page reads, counted per user, no cost.
      purpose: c
        .text("purpose", { enum: ["answer", "synthesis", "clarification", "moderation", "probe", "peer_review", "refusal_check", "web_search", "web_fetch"] })
        .notNull(),
      /** ok, error, timeout; refusal (the model declined); cancelled (left out at the soft deadline or with its run). */
      outcome: c.text("outcome", { enum: ["ok", "error", "timeout", "refusal", "cancelled"] }).notNull(),
      httpStatus: c.int("http_status"),
      error: c.text("error"),
      latencyMs: c.int("latency_ms").notNull(),
      tokensIn: c.int("tokens_in"),
      tokensOut: c.int("tokens_out"),
      /** Euros, from the price table (AI_PRICE_<KEY>) at the time of the call. */
      costEur: c.real("cost_eur"),
      createdAt: c.timestamp("created_at").notNull(),
    },
    (t) => [c.index("ai_calls_created_idx").on(t.createdAt), c.index("ai_calls_model_idx").on(t.model, t.createdAt)],
  );

  return { conversations, messages, processingRuns, apiRequests, aiCalls };
}
