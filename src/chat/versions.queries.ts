import { and, asc, eq, gte, inArray, isNotNull, max, min, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { conversations, messages } from "../db/schema/index.ts";

/**
 * Data access of the versions of a question (src/chat/versions.ts). A
 * version is a user message of a group (`version_group`: the group's first
 * user message, `version`: 1, 2...) and the messages that answer it, tagged
 * alike; the versions not shown are `superseded`.
 */

/** Tags the shown messages from `from` on as version `version` of `group`, and hides them (the last question is asked again). */
export async function supersedeFrom(tx: Db, conversationId: number, from: number, group: number, version: number): Promise<void> {
  await tx
    .update(messages)
    .set({ versionGroup: group, version, superseded: true })
    .where(and(eq(messages.conversationId, conversationId), gte(messages.id, from), eq(messages.superseded, false)));
}

export async function lastVersionOf(tx: Db, conversationId: number, group: number): Promise<number> {
  const [row] = await tx
    .select({ v: max(messages.version) })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.versionGroup, group)));
  return row?.v ?? 0;
}

/**
 * Tags the answers of the shown version of `group` (written by its run after
 * it was created, untagged): the shown messages after its question, up to
 * the next shown question.
 */
export async function sealShownVersion(tx: Db, conversationId: number, group: number): Promise<void> {
  const shown = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.superseded, false)))
    .orderBy(asc(messages.id));
  const start = shown.findIndex((m) => m.sender === "user" && m.versionGroup === group);
  if (start < 0) return;
  const question = shown[start]!;
  const answers: number[] = [];
  for (const m of shown.slice(start + 1)) {
    if (m.sender === "user") break;
    if (m.versionGroup === null) answers.push(m.id);
  }
  if (answers.length === 0) return;
  await tx.update(messages).set({ versionGroup: group, version: question.version }).where(inArray(messages.id, answers));
}

/** Shows version `version` of `group` and hides the others; false when the group has no such version. */
export async function showVersion(tx: Db, conversationId: number, group: number, version: number): Promise<boolean> {
  const inGroup = and(eq(messages.conversationId, conversationId), eq(messages.versionGroup, group));
  const [exists] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(inGroup, eq(messages.version, version), eq(messages.sender, "user")))
    .limit(1);
  if (!exists) return false;
  await tx
    .update(messages)
    .set({ superseded: false })
    .where(and(inGroup, eq(messages.version, version)));
  await tx
    .update(messages)
    .set({ superseded: true })
    .where(and(inGroup, ne(messages.version, version)));
  return true;
}

/** message_count counts the messages shown: a question asked again is still one question (the history). */
export async function recountMessages(tx: Db, conversationId: number): Promise<void> {
  await tx
    .update(conversations)
    .set({
      messageCount: sql`(SELECT count(*) FROM ${messages} WHERE ${messages.conversationId} = ${conversationId} AND NOT ${messages.superseded})`,
    })
    .where(eq(conversations.id, conversationId));
}

/** The number of versions of each group of the conversation. */
export async function versionCounts(db: Db, conversationId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ group: messages.versionGroup, count: max(messages.version) })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), isNotNull(messages.versionGroup), eq(messages.sender, "user")))
    .groupBy(messages.versionGroup);
  return new Map(rows.map((r) => [r.group!, r.count ?? 1]));
}

/**
 * Of these groups, the question of each version: the first user message of
 * the version (the user's replies to a clarification are tagged alike).
 */
export async function versionQuestionIds(db: Db, groups: readonly number[]): Promise<Set<number>> {
  if (groups.length === 0) return new Set();
  const rows = await db
    .select({ id: min(messages.id) })
    .from(messages)
    .where(and(inArray(messages.versionGroup, [...new Set(groups)]), eq(messages.sender, "user")))
    .groupBy(messages.versionGroup, messages.version);
  return new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id])));
}
