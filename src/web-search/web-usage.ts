import { and, count, desc, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { aiCalls, users } from "../db/schema/index.ts";

const PURPOSES = ["web_search", "web_fetch"] as const;

/** The council's web searches and page reads (issue 45) in the usage report: per UTC day, and for the users who search most. */
export type WebUsage = {
  per_day: Array<{ day: string; searches: number; fetches: number }>;
  users: Array<{ user_id: number; email: string | null; searches: number; fetches: number }>;
};

type Tally = { searches: number; fetches: number };
const add = (t: Tally, purpose: string, n: number) => (purpose === "web_search" ? { ...t, searches: t.searches + n } : { ...t, fetches: t.fetches + n });

/**
 * Read from the cost ledger (ai_calls, purposes web_search and web_fetch:
 * src/web-search/run-web-search.ts), counted in SQL per user and purpose;
 * the days from the rows' times, which drizzle reads alike on both databases.
 */
export async function webUsage(db: Db, since: Date, topUsers: number): Promise<WebUsage> {
  const inWindow = and(inArray(aiCalls.purpose, [...PURPOSES]), gte(aiCalls.createdAt, since));
  const times = await db.select({ at: aiCalls.createdAt, purpose: aiCalls.purpose }).from(aiCalls).where(inWindow);
  const days = new Map<string, Tally>();
  for (const r of times) {
    const day = r.at.toISOString().slice(0, 10);
    days.set(day, add(days.get(day) ?? { searches: 0, fetches: 0 }, r.purpose, 1));
  }
  const perUser = await db
    .select({ userId: aiCalls.userId, email: users.email, purpose: aiCalls.purpose, n: count() })
    .from(aiCalls)
    .leftJoin(users, eq(users.id, aiCalls.userId))
    .where(inWindow)
    .groupBy(aiCalls.userId, users.email, aiCalls.purpose)
    .orderBy(desc(count()));
  const byUser = new Map<number, { email: string | null } & Tally>();
  for (const r of perUser) {
    if (r.userId === null) continue;
    const u = byUser.get(r.userId) ?? { email: r.email, searches: 0, fetches: 0 };
    byUser.set(r.userId, { ...u, ...add(u, r.purpose, Number(r.n)) });
  }
  return {
    per_day: [...days.entries()].map(([day, t]) => ({ day, ...t })).sort((a, b) => a.day.localeCompare(b.day)),
    users: [...byUser.entries()]
      .map(([user_id, u]) => ({ user_id, email: u.email, searches: u.searches, fetches: u.fetches }))
      .sort((a, b) => b.searches - a.searches || b.fetches - a.fetches || a.user_id - b.user_id)
      .slice(0, topUsers),
  };
}
