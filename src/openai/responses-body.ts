import { z } from "zod";
import { AppError } from "../lib/errors.ts";
import type { Asked } from "./ask.ts";
import { type CompletionBody, type Message, toQuestion } from "./messages.ts";

const part = z.looseObject({ type: z.string(), text: z.string().optional() });
/** An input item: a message (with or without `type: "message"`); tool calls and their outputs are not Unisson's and are left out. */
const item = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(part), z.null()]).optional(),
});

/** POST /v1/responses for text: `input` (a string or messages) and `instructions`; other fields accepted and ignored. */
export const responsesBody = z.looseObject({
  model: z.string({ error: "Le champ « model » est obligatoire." }),
  input: z.union([z.string().min(1, "Le champ « input » ne peut pas être vide."), z.array(item).min(1, "Le champ « input » ne peut pas être vide.")], {
    error: "Le champ « input » doit être un texte ou une liste de messages.",
  }),
  instructions: z.string().nullish(),
  previous_response_id: z.string().nullish(),
  store: z.boolean().nullish(),
  conversation: z.unknown().optional(),
  stream: z.boolean().nullish(),
  tool_choice: z.unknown().optional(),
  tools: z.array(z.looseObject({ type: z.string() }), { error: "« tools » doit être une liste d'outils." }).nullish(),
  max_output_tokens: z.number().int().positive("« max_output_tokens » doit être un entier positif.").nullish(),
  text: z.looseObject({ format: z.looseObject({ type: z.string(), schema: z.record(z.string(), z.unknown()).optional() }).nullish() }).nullish(),
});

export type ResponsesBody = z.infer<typeof responsesBody>;

const WEB_SEARCH_TOOLS = new Set(["web_search", "web_search_preview", "web_search_2025_08_26", "web_search_preview_2025_03_11"]);

/**
 * The request read as a chat completion's (messages.ts): a string input is
 * the question, a list is the conversation. `instructions` are a system
 * message, ignored like chat completions' (Unisson keeps its own).
 */
export function responsesQuestion(body: ResponsesBody): Asked {
  // A turn chained to a stored one would reach the models without it: refused rather than answered out of context.
  if (body.previous_response_id) throw new AppError("API_STATE_UNSUPPORTED", undefined, {}, { param: "previous_response_id" });
  if (body.conversation != null) throw new AppError("API_STATE_UNSUPPORTED", undefined, {}, { param: "conversation" });
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  const messages: Message[] = items.flatMap((i) => (i.role && (i.type === undefined || i.type === "message") ? [{ role: i.role, content: i.content }] : []));
  // The web search tool (its current and preview names) turns the council's web search on; other tools are not Unisson's.
  const webSearch = (body.tools ?? []).some((t) => WEB_SEARCH_TOOLS.has(t.type));
  const chat: CompletionBody = {
    model: body.model,
    messages,
    tool_choice: body.tool_choice,
    max_completion_tokens: body.max_output_tokens,
    ...(webSearch ? { web_search_options: {} } : {}),
  };
  // text.format carries the schema itself where chat's response_format nests it under json_schema.
  const format = body.text?.format;
  return toQuestion({ ...chat, response_format: format ? { type: format.type, json_schema: { schema: format.schema } } : null });
}
