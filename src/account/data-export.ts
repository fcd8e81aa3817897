import type { UserRow } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { toPublicMessage } from "../chat/chat.view.ts";
import { listSharedLinks } from "../sharing/sharing.queries.ts";
import { toPublicShare } from "../sharing/sharing.service.ts";
import { userRows } from "./account.queries.ts";

/** Dates as ISO strings, recursively: the export is read by people and by other services. */
function iso<T>(value: T): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(iso);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, iso(v)]));
  return value;
}

/**
 * GET /api/auth/export: everything Unisson holds about the user (right of
 * access and portability, GDPR art. 15 and 20) as one JSON document. The
 * password hash, token hashes and two-factor codes are secrets, not data
 * about the person, and stay out.
 */
export async function exportUserData(deps: Pick<Deps, "db" | "clock">, user: UserRow) {
  const rows = await userRows(deps.db, user.id, user.email);
  const byConversation = new Map<number, typeof rows.messages>();
  for (const m of rows.messages) {
    const list = byConversation.get(m.conversationId);
    if (list) list.push(m);
    else byConversation.set(m.conversationId, [m]);
  }
  const { passwordHash: _secret, ...account } = user;
  const shares = await listSharedLinks(deps.db, user.id);
  return {
    format: "unisson-export/1",
    exported_at: deps.clock.now().toISOString(),
    account: iso(account),
    conversations: rows.conversations.map((c) => ({
      id: c.id,
      title: c.title,
      source: c.source,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
      messages: (byConversation.get(c.id) ?? []).map(toPublicMessage),
    })),
    payments: iso(rows.purchases),
    plan_changes: iso(rows.planChanges),
    billing_changes: iso(rows.billingChanges),
    checkout_sessions: iso(rows.checkouts),
    referrals: iso(rows.referrals.map((r) => ({ ...r, role: r.referrerId === user.id ? "parrain" : "filleul" }))),
    sessions: iso(rows.sessions),
    remembered_devices: iso(rows.devices),
    contact_messages: iso(rows.contact),
    ai_calls: iso(rows.aiCalls),
    api_keys: iso(rows.apiKeys),
    // The links themselves cannot be given back: only their hash is kept (docs/SECURITY.md, "Shared links").
    shared_links: shares.map((s) => ({ ...toPublicShare(s), snapshot: s.snapshot })),
  };
}
