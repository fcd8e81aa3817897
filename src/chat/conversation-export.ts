import { frChat } from "../i18n/fr-chat.ts";
import type { Deps } from "../deps.ts";
import { type ConversationRow, listMessages, type MessageRow } from "./chat.queries.ts";
import { ownedConversation } from "./chat.service.ts";

export type ExportFormat = "md" | "json";

/** A message as exported: what was said, and for an answer the models behind it and the sources they cited. */
type ExportedMessage = {
  role: "question" | "réponse";
  type: string | null;
  date: string;
  content: string;
  synthesis_by?: string | null;
  models_consulted?: string[];
  models_failed?: Array<{ name: string; error: string }>;
  sources?: string[];
};

/**
 * Reads the engine's result_data defensively: a stored answer outlives the
 * code that wrote it, so a field missing or of another shape is left out.
 */
function answerFacts(data: Record<string, unknown> | null) {
  const d = data ?? {};
  const names = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const models = Array.isArray(d.models) ? (d.models as Array<Record<string, unknown>>) : [];
  const sources = [...new Set(models.flatMap((m) => names(m?.citations)))];
  const failed = Array.isArray(d.failed_ais)
    ? (d.failed_ais as Array<Record<string, unknown>>)
        .filter((f) => typeof f?.name === "string")
        .map((f) => ({ name: String(f.name), error: String(f.error ?? "") }))
    : [];
  return { primary: typeof d.primary_ai === "string" ? d.primary_ai : null, consulted: names(d.available_ais), failed, sources };
}

function exportedMessage(m: MessageRow): ExportedMessage {
  const base = {
    role: m.sender === "user" ? ("question" as const) : ("réponse" as const),
    type: m.messageType,
    date: m.createdAt.toISOString(),
    content: m.content,
  };
  if (m.messageType !== "final_response") return base;
  const f = answerFacts(m.resultData ?? null);
  return { ...base, synthesis_by: f.primary, models_consulted: f.consulted, models_failed: f.failed, sources: f.sources };
}

function conversationDocument(c: ConversationRow, messages: MessageRow[]) {
  return {
    id: c.id,
    title: c.title,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    messages: messages.map(exportedMessage),
  };
}

const dateFr = (iso: string) => new Date(iso).toLocaleString("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Paris" });

/** The same document as Markdown: a heading per question and answer, the models and sources under each answer. */
export function conversationMarkdown(doc: ReturnType<typeof conversationDocument>): string {
  const out = [`# ${doc.title}`, frChat.export.title(dateFr(doc.created_at))];
  for (const m of doc.messages) {
    out.push(`## ${m.role === "question" ? frChat.export.question : frChat.export.answer} · ${dateFr(m.date)}`, m.content.trim());
    if (m.models_consulted?.length)
      out.push(`${frChat.export.modelsConsulted} ${m.models_consulted.join(", ")}${m.synthesis_by ? frChat.export.synthesisBy(m.synthesis_by) : ""}`);
    if (m.models_failed?.length) out.push(`${frChat.export.failed} ${m.models_failed.map((f) => `${f.name} (${f.error})`).join(", ")}`);
    // The answer text carries its own "## Sources" section; list them again only if it does not.
    if (m.sources?.length && !/^#{1,6}\s*Sources\b/im.test(m.content)) out.push(`${frChat.export.sources}\n${m.sources.map((s) => `- ${s}`).join("\n")}`);
  }
  return `${out.join("\n\n")}\n`;
}

/** GET /conversation/{id}/export: the caller's conversation as a file to download. */
export async function exportConversation(deps: Deps, userId: number, id: number, format: ExportFormat) {
  const conversation = await ownedConversation(deps, userId, id);
  const doc = conversationDocument(conversation, await listMessages(deps.db, conversation.id));
  const name = `unisson-conversation-${conversation.id}.${format}`;
  return format === "json"
    ? { name, type: "application/json; charset=UTF-8", body: JSON.stringify(doc, null, 2) }
    : { name, type: "text/markdown; charset=UTF-8", body: conversationMarkdown(doc) };
}
