import { asc, eq, or } from "drizzle-orm";
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

/**
 * Every row that names the user, table by table, for the data export. Secrets
 * are left out by selecting columns: session, device and API-key token hashes, codes.
 */
export function userRows(db: Db, userId: number, email: string) {
  return {
    conversations: db.select().from(conversations).where(eq(conversations.userId, userId)).orderBy(asc(conversations.id)).all(),
    // One query for every message, grouped by the caller: thousands of conversations, not thousands of queries.
    messages: db
      .select({ m: messages })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(eq(conversations.userId, userId))
      .orderBy(asc(messages.id))
      .all()
      .map((r) => r.m),
    purchases: db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(asc(purchases.id)).all(),
    planChanges: db.select().from(pendingPlanChanges).where(eq(pendingPlanChanges.userId, userId)).orderBy(asc(pendingPlanChanges.id)).all(),
    checkouts: db.select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId)).orderBy(asc(checkoutSessions.createdAt)).all(),
    referrals: db
      .select()
      .from(referrals)
      .where(or(eq(referrals.referrerId, userId), eq(referrals.refereeId, userId)))
      .orderBy(asc(referrals.id))
      .all(),
    sessions: db
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
      .orderBy(asc(sessions.id))
      .all(),
    devices: db
      .select({ createdAt: rememberedDevices.createdAt, expiresAt: rememberedDevices.expiresAt, revokedAt: rememberedDevices.revokedAt })
      .from(rememberedDevices)
      .where(eq(rememberedDevices.userId, userId))
      .orderBy(asc(rememberedDevices.id))
      .all(),
    contact: db
      .select({
        name: contactMessages.name,
        email: contactMessages.email,
        subject: contactMessages.subject,
        message: contactMessages.message,
        createdAt: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(or(eq(contactMessages.userId, userId), eq(contactMessages.email, email)))
      .orderBy(asc(contactMessages.id))
      .all(),
    aiCalls: db
      .select({
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
      .where(eq(aiCalls.userId, userId))
      .orderBy(asc(aiCalls.id))
      .all(),
    // The key itself is never stored; its hash is a secret and stays out.
    apiKeys: db
      .select({ name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(asc(apiKeys.id))
      .all(),
    billingChanges: db
      .select({
        actor: billingChanges.actor,
        action: billingChanges.action,
        detail: billingChanges.detail,
        stripeRef: billingChanges.stripeRef,
        createdAt: billingChanges.createdAt,
      })
      .from(billingChanges)
      .where(eq(billingChanges.userId, userId))
      .orderBy(asc(billingChanges.id))
      .all(),
  };
}
