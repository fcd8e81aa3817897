import { frDetails } from "../i18n/fr-details.ts";
import { z } from "zod";
import type { ChatTurn } from "../ai/types.ts";
import { MAX_MESSAGE_CHARS } from "../chat/chat.schemas.ts";
import type { JsonFormat } from "../chat/json-answer.ts";
import { compileSchema } from "../chat/json-schemas.ts";
import { AppError } from "../lib/errors.ts";
import { type ApiFile, filesOf } from "./api-files.ts";

/** The one model /v1 serves: the consolidated answer. */
export const MODEL_ID = "unisson";

/** Context given to the models: the last few messages, each trimmed, as for the page's earlier turns. */
const CONTEXT_MESSAGES = 6;
const CONTEXT_CHARS = 1_500;

/** Text parts as chat completions ("text") and the Responses API ("input_text", "output_text") write them; the last message's images and files are read apart (api-files.ts). */
const TEXT_PARTS = new Set(["text", "input_text", "output_text"]);

const part = z.looseObject({ type: z.string(), text: z.string().optional() });
const message = z.looseObject({
  role: z.string({ error: "Chaque message doit avoir un rôle (role)." }),
  content: z.union([z.string(), z.array(part), z.null()]).optional(),
});

/** The standard request; fields this endpoint has no use for (temperature, tools, ...) are accepted and ignored. */
export const completionBody = z.looseObject({
  model: z.string({ error: "Le champ « model » est obligatoire." }),
  messages: z
    .array(message, { error: "Le champ « messages » doit être une liste de messages." })
    // No count limit: a long thread is read by its tail (the body's limits, v1-body.ts, bound it).
    .min(1, "Le champ « messages » ne peut pas être vide."),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().nullish(),
  response_format: z
    .looseObject({ type: z.string(), json_schema: z.looseObject({ schema: z.record(z.string(), z.unknown()).optional() }).optional() })
    .nullish(),
  max_tokens: z.number().int().positive("« max_tokens » doit être un entier positif.").nullish(),
  max_completion_tokens: z.number().int().positive("« max_completion_tokens » doit être un entier positif.").nullish(),
  tool_choice: z.unknown().optional(),
  function_call: z.unknown().optional(),
  /** OpenAI's web search option: present (even `{}`), the council searches the web first (issue 45). */
  web_search_options: z.looseObject({}, { error: "« web_search_options » doit être un objet." }).nullish(),
});

/** tool_choice / function_call values that let the model answer in text; anything else demands a tool call. */
const TEXT_ALLOWED = new Set(["auto", "none"]);

function demandsTool(choice: unknown): boolean {
  if (choice === undefined || choice === null) return false;
  if (typeof choice === "string") return !TEXT_ALLOWED.has(choice);
  // {type: "allowed_tools", allowed_tools: {mode: "auto"}} leaves the choice to the model; a named function or mode "required" does not.
  const mode = (choice as { allowed_tools?: { mode?: unknown } }).allowed_tools?.mode;
  return !(typeof mode === "string" && TEXT_ALLOWED.has(mode));
}

/**
 * What Unisson cannot give, refused before anything is stored or charged:
 * several choices (one consolidated answer per question), and a tool call
 * the client demands (the council answers in text; a client that only
 * offers tools, tool_choice "auto", gets the text).
 */
export function assertSupported(body: { n?: number | null; tool_choice?: unknown; function_call?: unknown }): void {
  if (body.n != null && body.n !== 1) throw new AppError("API_N_UNSUPPORTED", undefined, {}, { param: "n" });
  if (demandsTool(body.tool_choice)) throw new AppError("API_TOOL_REQUIRED", undefined, {}, { param: "tool_choice" });
  if (demandsTool(body.function_call)) throw new AppError("API_TOOL_REQUIRED", undefined, {}, { param: "function_call" });
}

export type CompletionBody = z.infer<typeof completionBody>;
export type Message = z.infer<typeof message>;

function textOf(m: Message): string {
  if (typeof m.content === "string") return m.content.trim();
  return (m.content ?? [])
    .flatMap((p) => (TEXT_PARTS.has(p.type) && p.text ? [p.text] : []))
    .join("\n")
    .trim();
}

function trim(text: string): string {
  return text.length > CONTEXT_CHARS ? `${text.slice(0, CONTEXT_CHARS)}…` : text;
}

/**
 * The last message is the question (a user's, with text); the earlier user and
 * assistant messages are its context, as alternating turns starting with the
 * user (what every provider accepts). System, developer and tool messages are
 * left out: the engine keeps its own instructions.
 */
export function toQuestion(body: CompletionBody): { question: string; context: ChatTurn[]; options: AnswerOptions; files: ApiFile[] } {
  if (body.model.trim().toLowerCase() !== MODEL_ID) throw new AppError("API_MODEL_UNKNOWN");
  assertSupported(body);
  const last = body.messages.at(-1);
  const question = last ? textOf(last) : "";
  if (last?.role !== "user" || !question) throw new AppError("API_NO_QUESTION");
  if (question.length > MAX_MESSAGE_CHARS) throw new AppError("VALIDATION", frDetails.messageTooLong(MAX_MESSAGE_CHARS));

  const turns: ChatTurn[] = [];
  for (const m of body.messages.slice(0, -1)) {
    if (m.role !== "user" && m.role !== "assistant") continue;
    const text = textOf(m);
    if (!text) continue;
    const prev = turns.at(-1);
    if (prev?.role === m.role) prev.content = `${prev.content}\n\n${text}`;
    else turns.push({ role: m.role, content: text });
  }
  let context = turns.slice(-CONTEXT_MESSAGES).map((t) => ({ role: t.role, content: trim(t.content) }));
  while (context[0]?.role === "assistant") context = context.slice(1);
  // The question follows: the context must end with an answer.
  while (context.at(-1)?.role === "user") context = context.slice(0, -1);
  const format = formatOf(body.response_format);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const files = Array.isArray(last.content) ? filesOf(last.content) : [];
  const webSearch = body.web_search_options != null;
  return { question, context, options: { ...(format ? { format } : {}), ...(maxTokens ? { maxTokens } : {}), ...(webSearch ? { webSearch } : {}) }, files };
}

/** What shapes the answer beyond the question: JSON following a schema (response_format), a length (max_tokens), a web search (web_search_options, the web_search tool). */
export type AnswerOptions = { format?: JsonFormat; maxTokens?: number; webSearch?: boolean };

type FormatField = { type: string; json_schema?: { schema?: Record<string, unknown> } } | null | undefined;

/** response_format (chat) or text.format (responses) read: null for text; a schema that does not compile is a 400 now, before anything is stored. */
export function formatOf(f: FormatField): JsonFormat | null {
  if (!f || f.type === "text") return null;
  if (f.type === "json_object") return { schema: null };
  if (f.type !== "json_schema") throw new AppError("API_FORMAT_UNSUPPORTED", undefined, {}, { param: "response_format" });
  const schema = f.json_schema?.schema ?? (f as { schema?: Record<string, unknown> }).schema;
  if (!schema) throw new AppError("API_SCHEMA_INVALID", undefined, {}, { param: "response_format" });
  compileSchema(schema);
  return { schema };
}
