import type { Db } from "../db/client.ts";
import { aiCalls } from "../db/schema/index.ts";

export type AiCallLog = typeof aiCalls.$inferInsert;

export function insertAiCall(db: Db, row: AiCallLog): void {
  db.insert(aiCalls).values(row).run();
}

export function insertAiCalls(db: Db, rows: AiCallLog[]): void {
  if (rows.length > 0) db.insert(aiCalls).values(rows).run();
}
