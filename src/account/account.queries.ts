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
export async function userRows(db: Db, userId: number, email: string) {
  return {
    conversations: await db.select().from(conversations).where(eq(conversations.userId, userId)).orderBy(asc(conversations.id)),
    // One query for every message, grouped by the caller: thousands of conversations, not thousands of queries.
    messages: (
      await db
        .select({ m: messages })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(eq(conversations.userId, userId))
        .orderBy(asc(messages.id))
    ).map((r) => r.m),
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
    aiCalls: await db
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
      .orderBy(asc(aiCalls.id)),
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
