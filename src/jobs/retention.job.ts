import { and, eq, lt, ne, type SQL, sql } from "drizzle-orm";
import { aiCalls } from "../db/schema/index.ts";
import type { Deps } from "../deps.ts";
import { DAY } from "../lib/clock.ts";
import type { Job } from "./job.ts";

/** How long the AI-call log is kept: 90 days of real calls for usage figures, a week of probes (about 1,700 a day). */
const AI_CALLS_KEEP_DAYS = 90;
const PROBES_KEEP_DAYS = 7;

export async function trimAiCalls({ db, clock }: Deps) {
  const now = clock.now().getTime();
  /** Deletes the rows of `kind` older than `days`; how many. */
  const trim = async (kind: SQL | undefined, days: number) =>
    (
      await db
        .delete(aiCalls)
        .where(and(kind, lt(aiCalls.createdAt, new Date(now - days * DAY))))
        .returning({ n: sql`1` })
    ).length;
  return {
    probes: await trim(eq(aiCalls.purpose, "probe"), PROBES_KEEP_DAYS),
    calls: await trim(ne(aiCalls.purpose, "probe"), AI_CALLS_KEEP_DAYS),
  };
}

export const aiCallsRetentionJob: Job = { name: "ai-calls-retention", everyMs: 6 * 60 * 60_000, runAtStart: true, run: trimAiCalls };
