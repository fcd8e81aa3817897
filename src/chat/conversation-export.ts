import { frChat } from "../i18n/fr-chat.ts";
import type { PeerReview } from "../contracts/peer-review.ts";
import type { Deps } from "../deps.ts";
import { frPeerReview } from "../i18n/fr-peer-review.ts";
import { keysetPages, textStream } from "../lib/json-stream.ts";
import { type ConversationRow, type MessageRow, messagePage } from "./chat.queries.ts";
import { ownedConversation } from "./owned-conversation.ts";
import type { AttachmentInfo } from "../attachments/attachments.queries.ts";
import { attachmentsOfQuestions } from "../attachments/message-attachments.ts";

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
  /** The council's peer review, when it ran: the models by average rank, best first, and who did not rank. */
  peer_ranking?: Array<{ name: string; label: string; average_rank: number }>;
  peer_review_failures?: string[];
  /** The files sent with a question (their bytes are in the account's data export, not here). */
  attachments?: Array<{ name: string; kind: string; size: number }>;
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
  return { primary: typeof d.primary_ai === "string" ? d.primary_ai : null, consulted: names(d.available_ais), failed, sources, ...peerFacts(d.peer_review) };
}

/** The peer review's part of an export, or nothing when the answer has none (review off, older answers). */
function peerFacts(review: unknown): Pick<ExportedMessage, "peer_ranking" | "peer_review_failures"> {
  const r = review as Partial<PeerReview> | null | undefined;
  if (!r || !Array.isArray(r.ranking)) return {};
  return {
    peer_ranking: r.ranking.map((p) => ({ name: String(p.name), label: String(p.label), average_rank: Number(p.average_rank) })),
    peer_review_failures: Array.isArray(r.failures) ? r.failures.map(String) : [],
  };
}

function exportedMessage(m: MessageRow, files: readonly AttachmentInfo[]): ExportedMessage {
  const base = {
    role: m.sender === "user" ? ("question" as const) : ("réponse" as const),
    type: m.messageType,
    date: m.createdAt.toISOString(),
    content: m.content,
    ...(files.length > 0 ? { attachments: files.map((f) => ({ name: f.name, kind: f.kind, size: f.size })) } : {}),
  };
  if (m.messageType !== "final_response") return base;
  const f = answerFacts(m.resultData ?? null);
  const { primary, consulted, failed, sources, ...peer } = f;
  return { ...base, synthesis_by: primary, models_consulted: consulted, models_failed: failed, sources, ...peer };
}

/** Messages per page of a conversation export: a page is all the export holds at once. */
const MESSAGE_PAGE = 100;

function header(c: ConversationRow) {
  return { id: c.id, title: c.title, created_at: c.createdAt.toISOString(), updated_at: c.updatedAt.toISOString() };
}

const dateFr = (iso: string) => new Date(iso).toLocaleString("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Paris" });

/** One question or answer as Markdown: its heading and text, then the models and sources under an answer. */
function messageMarkdown(m: ExportedMessage): string {
  const out = [`## ${m.role === "question" ? frChat.export.question : frChat.export.answer} · ${dateFr(m.date)}`, m.content.trim()];
  if (m.models_consulted?.length)
    out.push(`${frChat.export.modelsConsulted} ${m.models_consulted.join(", ")}${m.synthesis_by ? frChat.export.synthesisBy(m.synthesis_by) : ""}`);
  if (m.attachments?.length) out.push(`${frChat.export.attachments} ${m.attachments.map((a) => a.name).join(", ")}`);
  if (m.models_failed?.length) out.push(`${frChat.export.failed} ${m.models_failed.map((f) => `${f.name} (${f.error})`).join(", ")}`);
  if (m.peer_ranking) out.push(frPeerReview.exportRanking(m.peer_ranking, m.peer_review_failures ?? []));
  // The answer text carries its own "## Sources" section; list them again only if it does not.
  if (m.sources?.length && !/^#{1,6}\s*Sources\b/im.test(m.content)) out.push(`${frChat.export.sources}\n${m.sources.map((s) => `- ${s}`).join("\n")}`);
  return out.join("\n\n");
}

/** `text` indented by `pad` on every line (a pretty-printed value placed inside another). */
const indent = (text: string, pad: string) => text.replace(/^/gm, pad);

/**
 * The document as text pieces, written as the messages are read (pages of
 * MESSAGE_PAGE): Markdown, a heading per question and answer with the models
 * and sources under each answer; or JSON, pretty-printed.
 */
async function* documentPieces(deps: Deps, c: ConversationRow, format: ExportFormat): AsyncGenerator<string> {
  const head = header(c);
  yield format === "json"
    ? `${JSON.stringify(head, null, 2).replace(/\n}$/, ",")}\n  "messages": [`
    : `# ${head.title}\n\n${frChat.export.title(dateFr(head.created_at))}`;
  let before = format === "json" ? "\n" : "\n\n";
  // Each page's files in one query, tied to their question.
  const withFiles = async (after: number) => {
    const rows = await messagePage(deps.db, c.id, after, MESSAGE_PAGE);
    const files = await attachmentsOfQuestions(deps.db, rows);
    return rows.map((m) => ({ m, files: files.get(m.id) ?? [] }));
  };
  for await (const page of keysetPages(
    withFiles,
    (r) => r.m.id,
    (r) => exportedMessage(r.m, r.files),
  )) {
    for (const m of page) {
      yield format === "json" ? `${before}${indent(JSON.stringify(m, null, 2), "    ")}` : `${before}${messageMarkdown(m)}`;
      before = format === "json" ? ",\n" : "\n\n";
    }
  }
  yield format === "json" ? (before === "\n" ? "]\n}\n" : "\n  ]\n}\n") : "\n";
}

/** GET /conversation/{id}/export: the caller's conversation as a file to download, streamed as it is read. */
export async function exportConversation(deps: Deps, userId: number, id: number, format: ExportFormat) {
  const conversation = await ownedConversation(deps, userId, id);
  const name = `unisson-conversation-${conversation.id}.${format}`;
  const type = format === "json" ? "application/json; charset=UTF-8" : "text/markdown; charset=UTF-8";
  return { name, type, body: textStream(documentPieces(deps, conversation, format)) };
}
