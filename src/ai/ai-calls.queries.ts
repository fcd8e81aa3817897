import type { Db } from "../db/client.ts";
import { aiCalls } from "../db/schema/index.ts";

export type AiCallLog = typeof aiCalls.$inferInsert;

export async function insertAiCall(db: Db, row: AiCallLog): Promise<void> {
  await db.insert(aiCalls).values(row);
}

export async function insertAiCalls(db: Db, rows: AiCallLog[]): Promise<void> {
  if (rows.length > 0) await db.insert(aiCalls).values(rows);
}
