import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { aiCalls } from "../db/schema/index.ts";
import { type MemberStatus, NO_STATUS } from "./council.view.ts";

/**
 * The probe's last result for each name: the newest `probe` call in the AI-call
 * log (the background probe and « Tester » both log one), read from the
 * database so every server and the CLI show the same status. One indexed read
 * per member (ai_calls_model_idx), eight at most.
 */
export async function lastProbes(db: Db, names: readonly string[]): Promise<Map<string, MemberStatus>> {
  const rows = await Promise.all(
    names.map(async (name) => {
      const [row] = await db
        .select({ outcome: aiCalls.outcome, error: aiCalls.error, latencyMs: aiCalls.latencyMs, createdAt: aiCalls.createdAt })
        .from(aiCalls)
        .where(and(eq(aiCalls.model, name), eq(aiCalls.purpose, "probe")))
        .orderBy(desc(aiCalls.createdAt), desc(aiCalls.id))
        .limit(1);
      const status: MemberStatus = row
        ? { ok: row.outcome === "ok", checked_at: row.createdAt.toISOString(), latency_ms: row.latencyMs, error: row.outcome === "ok" ? null : row.error }
        : NO_STATUS;
      return [name, status] as const;
    }),
  );
  return new Map(rows);
}
