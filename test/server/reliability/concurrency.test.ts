import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { closeDb } from "../../../src/db/client.ts";
import { conversations, messages, processingRuns, users as usersTable } from "../../../src/db/schema/index.ts";
import { systemClock } from "../../../src/lib/clock.ts";
import { type FakeProviders, startFakeProviders } from "../../fakes/ai/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { tempDir } from "../../helpers/binary.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/**
 * 100 users each send 5 questions at once (chat, then final processing)
 * to the app with its database on disk (WAL, synchronous=FULL) and the six
 * fake providers over real HTTP. The requests enter through app.request:
 * a client in this process using fetch would take the HTTP client slots the
 * app needs for its own upstream calls. Each user has 3 requests left:
 * exactly 3 answers each, every other attempt a French 402, nothing charged
 * twice, no 5xx. Each charged answer takes exactly one request; a degraded
 * answer (a model past its deadline when the machine is loaded) is shown and
 * given back (the cost rule), so the balance left is exactly the number of
 * free answers.
 */
const USERS = 100;
const PER_USER = 5;
const QUOTA = 3;

let ai: FakeProviders;
const dir = tempDir("unisson-concurrency-");
beforeAll(() => {
  ai = startFakeProviders();
});
afterAll(async () => {
  await ai.stop();
  dir.cleanup();
});

describe("100 users x 5 questions at once", () => {
  test("quotas hold exactly: 3 answers per user, the rest refused with 402, no 5xx", async () => {
    const t = await createTestApp({
      // A 30 s stall limit (AI_TIMEOUT_MS/3, at most 30 s): 3,000 model calls in this one process, under a load
      // average above 10, left some fakes unscheduled past the 6.7 s of AI_TIMEOUT_MS=20000 (503s, issue 46).
      env: { ...ai.env, DATABASE_PATH: join(dir.path, "unisson.db"), AI_TIMEOUT_MS: "90000" },
      deps: { clock: systemClock as never },
    });
    const post = async (path: string, token: string, json: unknown) => {
      const res = await t.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(json),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const users = await Promise.all(Array.from({ length: USERS }, async () => await makeUser(t.db, new Date(), { planQueries: QUOTA })));
    try {
      const outcomes = await Promise.all(
        users.flatMap(({ user, token }) =>
          Array.from({ length: PER_USER }, async (_, i) => {
            const chat = await post("/api/unisson/chat", token, { message: `Question ${i} de ${user.id}` });
            if (chat.status !== 200) return { user: user.id, status: chat.status, detail: chat.body.detail };
            const done = await post("/api/unisson/process", token, { conversation_id: chat.body.conversation_id });
            return { user: user.id, status: done.status, detail: done.body.detail };
          }),
        ),
      );
      expect(outcomes.filter((o) => o.status !== 200 && o.status !== 402)).toEqual([]);
      for (const o of outcomes.filter((x) => x.status === 402))
        expect(o.detail).toBe("Vous avez utilisé vos 5 requêtes gratuites. Choisissez un forfait payant pour continuer.");
      const answered = new Map<number, number>();
      for (const o of outcomes) if (o.status === 200) answered.set(o.user, (answered.get(o.user) ?? 0) + 1);
      expect(users.filter(({ user }) => answered.get(user.id) !== QUOTA).map(({ user }) => user.id)).toEqual([]);
      // paid: the answers stored as charged (result_data.charged); the others were given back.
      const charged = await t.db.select({ user: processingRuns.userId }).from(processingRuns).where(eq(processingRuns.charged, true));
      const finals = await t.db
        .select({ user: conversations.userId, result: messages.resultData })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(eq(messages.messageType, "final_response"));
      const people = await t.db.select({ id: usersTable.id, plan: usersTable.planQueries, extra: usersTable.extraQueries }).from(usersTable);
      const rows = people.map((u) => ({
        id: u.id,
        left: u.plan + u.extra,
        charged: charged.filter((r) => r.user === u.id).length,
        // json_extract(result_data, '$.charged') = 1 read true and 1 alike.
        paid: finals.filter((m) => m.user === u.id && [true, 1].includes((m.result as { charged?: unknown } | null)?.charged as never)).length,
      }));
      expect(rows.filter((r) => r.charged !== r.paid || r.left !== QUOTA - r.paid)).toEqual([]);
    } finally {
      await closeDb(t.db);
    }
  }, 120_000);
});
