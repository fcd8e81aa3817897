import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import {
  aiCalls,
  apiKeys,
  billingChanges,
  checkoutSessions,
  contactMessages,
  conversations,
  messages,
  pendingPlanChanges,
  purchases,
  referrals,
  rememberedDevices,
  sessions,
} from "../db/schema/index.ts";

/** Conversations per page of the export: a page and its messages are all the export holds at once. */
const EXPORT_PAGE = 50;

/** The user's conversations after `afterId`, oldest first, each with its messages (two queries a page). */
export async function conversationPage(db: Db, userId: number, afterId: number) {
  const page = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), gt(conversations.id, afterId)))
    .orderBy(asc(conversations.id))
    .limit(EXPORT_PAGE);
  if (page.length === 0) return [];
  const rows = await db
    .select()
    .from(messages)
    .where(
      inArray(
        messages.conversationId,
        page.map((c) => c.id),
      ),
    )
    .orderBy(asc(messages.id));
  const byConversation = new Map<number, typeof rows>();
  for (const m of rows) {
    const list = byConversation.get(m.conversationId);
    if (list) list.push(m);
    else byConversation.set(m.conversationId, [m]);
  }
  return page.map((conversation) => ({ conversation, messages: byConversation.get(conversation.id) ?? [] }));
}

/** AI calls per page of the export: seven a request, so an old account has tens of thousands. */
const AI_CALL_PAGE = 1000;

/** The user's AI calls after `afterId` (their own id, for the next page; not exported). */
export async function aiCallPage(db: Db, userId: number, afterId: number) {
  return await db
    .select({
      id: aiCalls.id,
      conversationId: aiCalls.conversationId,
      model: aiCalls.model,
      purpose: aiCalls.purpose,
      outcome: aiCalls.outcome,
      latencyMs: aiCalls.latencyMs,
      tokensIn: aiCalls.tokensIn,
      tokensOut: aiCalls.tokensOut,
      costEur: aiCalls.costEur,
      createdAt: aiCalls.createdAt,
    })
    .from(aiCalls)
    .where(and(eq(aiCalls.userId, userId), gt(aiCalls.id, afterId)))
    .orderBy(asc(aiCalls.id))
    .limit(AI_CALL_PAGE);
}

/**
 * The other rows that name the user, table by table (a handful each: read
 * whole), for the data export. Secrets are left out by selecting columns:
 * session, device and API-key token hashes, codes.
 */
export async function smallUserRows(db: Db, userId: number, email: string) {
  return {
    purchases: await db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(asc(purchases.id)),
    planChanges: await db.select().from(pendingPlanChanges).where(eq(pendingPlanChanges.userId, userId)).orderBy(asc(pendingPlanChanges.id)),
    checkouts: await db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId)).orderBy(asc(checkoutSessions.createdAt)),
    referrals: await db
      .select()
      .from(referrals)
      .where(or(eq(referrals.referrerId, userId), eq(referrals.refereeId, userId)))
      .orderBy(asc(referrals.id)),
    sessions: await db
      .select({
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(asc(sessions.id)),
    devices: await db
      .select({ createdAt: rememberedDevices.createdAt, expiresAt: rememberedDevices.expiresAt, revokedAt: rememberedDevices.revokedAt })
      .from(rememberedDevices)
      .where(eq(rememberedDevices.userId, userId))
      .orderBy(asc(rememberedDevices.id)),
    contact: await db
      .select({
        name: contactMessages.name,
        email: contactMessages.email,
        subject: contactMessages.subject,
        message: contactMessages.message,
        createdAt: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(or(eq(contactMessages.userId, userId), eq(contactMessages.email, email)))
      .orderBy(asc(contactMessages.id)),
    // The key itself is never stored; its hash is a secret and stays out.
    apiKeys: await db
      .select({ name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(asc(apiKeys.id)),
    billingChanges: await db
      .select({
        actor: billingChanges.actor,
        action: billingChanges.action,
        detail: billingChanges.detail,
        stripeRef: billingChanges.stripeRef,
        createdAt: billingChanges.createdAt,
      })
      .from(billingChanges)
      .where(eq(billingChanges.userId, userId))
      .orderBy(asc(billingChanges.id)),
  };
}
