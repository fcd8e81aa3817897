import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { transaction } from "../db/transaction.ts";
import { aiCalls, conversations, users } from "../db/schema/index.ts";

export type AiCallLog = typeof aiCalls.$inferInsert;

export async function insertAiCall(db: Db, row: AiCallLog): Promise<void> {
  await insertAiCalls(db, [row]);
}

/**
 * AI calls are the cost ledger: a row outlives its user and its conversation
 * (their ids become null), and a call that ends after either was deleted (a
 * conversation deleted during the moderation of its next message) is still
 * written, without the link its foreign key would refuse: each id is written
 * as "that row's id if it still exists", in the same statement.
 */
export async function insertAiCalls(db: Db, rows: AiCallLog[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    ...r,
    userId: stillThere(sql`SELECT ${users.id} FROM ${users} WHERE ${users.id} = ${r.userId}`, r.userId),
    conversationId: stillThere(sql`SELECT ${conversations.id} FROM ${conversations} WHERE ${conversations.id} = ${r.conversationId}`, r.conversationId),
  }));
  // A transaction of its own (a savepoint in the caller's): on PostgreSQL a deletion still in flight when the
  // row is read makes the foreign key's check fail as a serialization failure, retried, which then reads it gone.
  await transaction(db, async (tx) => {
    await tx.insert(aiCalls).values(values);
  });
}

function stillThere(select: SQL, id: number | null | undefined): SQL | null {
  return id == null ? null : sql`(${select})`;
}
