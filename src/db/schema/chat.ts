import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";

export const SENDERS = ["user", "assistant"] as const;
export const MESSAGE_TYPES = ["question", "clarification", "mono_clarification", "detail_request", "content_moderation", "final_response"] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const CONVERSATION_SOURCES = ["web", "api"] as const;
export type ConversationSource = (typeof CONVERSATION_SOURCES)[number];

export const conversations = sqliteTable(
  "conversations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    messageCount: integer("message_count").notNull().default(0),
    /** Where the conversation was asked: the page, or the OpenAI-compatible API (a personal key). */
    source: text("source", { enum: CONVERSATION_SOURCES }).notNull().default("web"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [index("conversations_user_updated_idx").on(t.userId, t.updatedAt)],
);

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    sender: text("sender", { enum: SENDERS }).notNull(),
    /** Null for a plain user message. */
    messageType: text("message_type", { enum: MESSAGE_TYPES }),
    content: text("content").notNull(),
    /** JSON: final_response, primary_ai, available_ais, per-model answers. */
    resultData: text("result_data", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("messages_conversation_idx").on(t.conversationId, t.id)],
);

/**
 * One row per final processing of a turn (the user message it answers):
 * the unique index makes concurrent /process calls charge once and share one answer.
 */
export const processingRuns = sqliteTable(
  "processing_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    turnMessageId: integer("turn_message_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["running", "done", "failed"] }).notNull(),
    resultMessageId: integer("result_message_id"),
    charged: integer("charged", { mode: "boolean" }).notNull().default(false),
    /** The balance the request came from, so a run cut short by a crash is refunded at the next start. */
    chargedFrom: text("charged_from", { enum: ["plan", "extra"] }),
    error: text("error"),
    /** The run's events so far (without the synthesis text deltas), for a client that re-attaches later. */
    events: text("events", { mode: "json" }).$type<Array<Record<string, unknown>>>(),
    createdAt: timestamp("created_at").notNull(),
    finishedAt: timestamp("finished_at"),
  },
  (t) => [uniqueIndex("processing_runs_turn_idx").on(t.conversationId, t.turnMessageId)],
);

/** Every upstream AI call: latency, tokens and outcome (answers, synthesis, clarification, probes). */
export const aiCalls = sqliteTable(
  "ai_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    conversationId: integer("conversation_id").references(() => conversations.id, { onDelete: "set null" }),
    model: text("model").notNull(),
    provider: text("provider").notNull(),
    purpose: text("purpose", { enum: ["answer", "synthesis", "clarification", "moderation", "probe"] }).notNull(),
    /** ok, error, timeout; refusal (the model declined); cancelled (left out at the soft deadline or with its run). */
    outcome: text("outcome", { enum: ["ok", "error", "timeout", "refusal", "cancelled"] }).notNull(),
    httpStatus: integer("http_status"),
    error: text("error"),
    latencyMs: integer("latency_ms").notNull(),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    /** Euros, from the price table (AI_PRICE_<KEY>) at the time of the call. */
    costEur: real("cost_eur"),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("ai_calls_created_idx").on(t.createdAt), index("ai_calls_model_idx").on(t.model, t.createdAt)],
);
