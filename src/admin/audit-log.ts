import { userInfo } from "node:os";
import { desc, eq, or } from "drizzle-orm";
import { containsText } from "../db/portable-sql.ts";
import type { Db } from "../db/client.ts";
import { auditLog, type UserRow } from "../db/schema/index.ts";

/**
 * The audit log: every change an administrator (admin API) or an operator
 * (CLI) makes, with who, when and what changed (docs/SECURITY.md, "Audit
 * log"). Written by the callers, routes and commands, which know the actor;
 * the services stay actor-free. Password hashes, tokens and links are never
 * recorded, only that they changed or were created.
 */

export type AuditAction =
  | "user.create"
  | "user.update"
  | "user.set_plan"
  | "user.grant"
  | "user.set_admin"
  | "user.two_factor"
  | "user.reset_password"
  | "user.delete"
  | "promo.create"
  // The council (issue 35): the target is the member's name; a key shows as its last 4 characters only.
  | "council.add"
  | "council.update"
  | "council.synthesisers"
  | "council.settings";

export type Changes = Record<string, [unknown, unknown]>;

/** The actor of an admin API request. */
export function adminActor(user: Pick<UserRow, "id" | "email">): string {
  return `admin:${user.id} ${user.email}`;
}

/** The actor of a CLI command: the operating-system account that ran it. */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli";
  }
}

/** The fields an admin or operator can change, as the audit shows them. */
const AUDITED: Array<[keyof UserRow, string]> = [
  ["email", "email"],
  ["firstName", "first_name"],
  ["lastName", "last_name"],
  ["subscriptionType", "subscription_type"],
  ["billingCycle", "billing_cycle"],
  ["planQueries", "plan_queries"],
  ["extraQueries", "extra_queries"],
  ["trialEndsAt", "trial_ends_at"],
  ["isAdmin", "is_admin"],
  ["twoFactorEnabled", "two_factor_enabled"],
];

const shown = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));

/** { field: [before, after] } for every audited field that differs. */
export function userChanges(before: UserRow, after: UserRow): Changes {
  const out: Changes = {};
  for (const [key, name] of AUDITED) {
    const a = shown(before[key]);
    const b = shown(after[key]);
    if (a !== b) out[name] = [a, b];
  }
  return out;
}

export async function recordAudit(
  db: Db,
  entry: { at: Date; actor: string; action: AuditAction; targetEmail?: string | null; changes?: Changes | Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    targetEmail: entry.targetEmail ?? null,
    changes: entry.changes && Object.keys(entry.changes).length ? JSON.stringify(entry.changes) : null,
  });
}

function aboutEmail(email: string) {
  return or(eq(auditLog.targetEmail, email), containsText(auditLog.changes, JSON.stringify(email)));
}

export type AuditEntry = { id: number; at: string; actor: string; action: string; target: string | null; changes: Record<string, unknown> | null };

/** Newest first; `email` keeps the entries about that account, under that address or changing to or from it. */
export async function listAudit(db: Db, opts: { email?: string; last?: number } = {}): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(opts.email ? aboutEmail(opts.email.trim().toLowerCase()) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(opts.last ?? 100);
  return rows.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    target: r.targetEmail,
    changes: r.changes ? (JSON.parse(r.changes) as Record<string, unknown>) : null,
  }));
}
