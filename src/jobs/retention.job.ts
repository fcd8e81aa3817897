import { and, eq, lt, ne, sql } from "drizzle-orm";
import { aiCalls } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { DAY } from "../lib/clock.ts";
import type { Job } from "./job.ts";

/** How long the AI-call log is kept: 90 days of real calls for usage figures, a week of probes (about 1,700 a day). */
const AI_CALLS_KEEP_DAYS = 90;
const PROBES_KEEP_DAYS = 7;

export async function trimAiCalls({ db, clock }: Deps) {
  const now = clock.now().getTime();
  const probes = (
    await db
      .delete(aiCalls)
      .where(and(eq(aiCalls.purpose, "probe"), lt(aiCalls.createdAt, new Date(now - PROBES_KEEP_DAYS * DAY))))
      .returning({ n: sql`1` })
  ).length;
  const calls = (
    await db
      .delete(aiCalls)
      .where(and(ne(aiCalls.purpose, "probe"), lt(aiCalls.createdAt, new Date(now - AI_CALLS_KEEP_DAYS * DAY))))
      .returning({ n: sql`1` })
  ).length;
  return { probes, calls };
}

export const aiCallsRetentionJob: Job = { name: "ai-calls-retention", everyMs: 6 * 60 * 60_000, runAtStart: true, run: trimAiCalls };
