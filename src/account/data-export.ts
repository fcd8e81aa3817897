import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { toPublicMessage } from "../chat/chat.view.ts";
import { jsonObject, keysetPages, slicedObject, textStream } from "../lib/json-stream.ts";
import { aiCallPage, conversationPage, smallUserRows } from "./account.queries.ts";
import { listSharedLinks } from "../sharing/sharing.queries.ts";
import { toPublicShare } from "../sharing/sharing.service.ts";
import { attachmentExportPage } from "../attachments/attachments.queries.ts";
import { textOf } from "../attachments/attachments.service.ts";

/** Dates as ISO strings, recursively: the export is read by people and by other services. */
function iso<T>(value: T): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(iso);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, iso(v)]));
  return value;
}

/**
 * GET /api/auth/export: everything Unisson holds about the user (right of
 * access and portability, GDPR art. 15 and 20) as one JSON document, written
 * as it is read: conversations (with their messages) and AI calls come page
 * by page (account.queries.ts), the other tables are a handful of rows each,
 * so memory holds one page whatever the account's size. The password hash,
 * token hashes and two-factor codes are secrets, not data about the person,
 * and stay out. Pages are read one after the other, not in one snapshot: a
 * conversation written during the export may or may not be in it.
 */
export async function exportUserData(deps: Pick<Deps, "db" | "clock">, user: UserRow): Promise<ReadableStream<Uint8Array>> {
  const { db } = deps;
  const rows = await smallUserRows(db, user.id, user.email);
  const shares = await listSharedLinks(db, user.id);
  const { passwordHash: _secret, ...account } = user;
  const conversations = keysetPages(
    (after) => conversationPage(db, user.id, after),
    (p) => p.conversation.id,
    ({ conversation: c, messages }) => ({
      id: c.id,
      title: c.title,
      source: c.source,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
      // Every version of a question is the user's data: an earlier one says so (src/chat/versions.ts).
      messages: messages.map((m) => (m.superseded ? { ...toPublicMessage(m), superseded: true, version: m.version } : toPublicMessage(m))),
    }),
  );
  const aiCalls = keysetPages(
    (after) => aiCallPage(db, user.id, after),
    (c) => c.id,
    ({ id: _id, ...call }) => iso(call),
  );
  // Each file as base64 in the one JSON document (docs/API.md, "Data export"): the export stays one file that any tool reads.
  const files = keysetPages(
    (after) => attachmentExportPage(db, user.id, after),
    (a) => a.id,
    // The text and the bytes in slices, made as the stream is read (json-stream.ts): a 10 MB file is no single step.
    (a) =>
      slicedObject(
        {
          id: a.id,
          conversation_id: a.conversationId,
          message_id: a.messageId,
          name: a.name,
          kind: a.kind,
          mime: a.mime,
          size: a.size,
          pages: a.pages,
          created_at: a.createdAt.toISOString(),
        },
        [
          ["extracted_text", textOf(a, a.data)],
          ["data_base64", a.data],
        ],
      ),
  );
  return textStream(
    jsonObject([
      { key: "format", value: "unisson-export/1" },
      { key: "exported_at", value: deps.clock.now().toISOString() },
      { key: "account", value: iso(account) },
      { key: "conversations", pages: conversations },
      { key: "attachments", pages: files },
      { key: "payments", value: iso(rows.purchases) },
      { key: "plan_changes", value: iso(rows.planChanges) },
      { key: "billing_changes", value: iso(rows.billingChanges) },
      { key: "checkout_sessions", value: iso(rows.checkouts) },
      { key: "referrals", value: iso(rows.referrals.map((r) => ({ ...r, role: r.referrerId === user.id ? "parrain" : "filleul" }))) },
      { key: "sessions", value: iso(rows.sessions) },
      { key: "remembered_devices", value: iso(rows.devices) },
      { key: "contact_messages", value: iso(rows.contact) },
      { key: "ai_calls", pages: aiCalls },
      { key: "api_keys", value: iso(rows.apiKeys) },
      // The links themselves cannot be given back: only their hash is kept (docs/SECURITY.md, "Shared links").
      { key: "shared_links", value: shares.map((s) => ({ ...toPublicShare(s), snapshot: s.snapshot })) },
    ]),
  );
}
