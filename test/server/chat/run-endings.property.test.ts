import { describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import fc from "fast-check";
import { recoverInterruptedRuns } from "../../../src/chat/recovery.ts";
import { failOwnOrphans, sweepDeadServersRuns } from "../../../src/chat/run-liveness.ts";
import { messages, processingRuns, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { useFakeProviders } from "./chat.helpers.ts";
import { acceptRunEndings, refuseRunEndings } from "./refuse-writes.ts";

/**
 * For any interleaving of a final write failure (the database refusing to
 * end runs for a while: refuse-writes.ts), a restart (the next start's
 * recovery: SQLite's; a no-op on PostgreSQL, where the sweep does it) and a
 * sweep (another server's, taking the run for dead), plus the server's own
 * orphan sweep, on SQLite and PostgreSQL: every run ends failed-and-refunded
 * or done-and-charged, once; never running, never charged without its
 * answer, never refunded twice.
 */
const fakes = useFakeProviders();

type Step = { at: number; what: "refuse" | "restart" | "sweep" | "orphans"; forMs: number };

describe("property: final write failure, restart and sweep in any order", () => {
  test("every run ends failed-and-refunded or done-and-charged, once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 1200 }),
            what: fc.constantFrom("refuse" as const, "restart" as const, "sweep" as const, "orphans" as const),
            forMs: fc.integer({ min: 100, max: 5000 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (steps: Step[]) => {
          fakes().control.reset();
          fakes().control.setAll({ latencyMs: 400 });
          const env = { ...fakes().env, AI_TIMEOUT_MS: "12000" };
          const a = await createTestApp({ env });
          // Another server on the same database (its own id): its sweep and, as the next start, its recovery.
          const b = a.config.databaseUrl
            ? await createTestApp({ env: { ...env, DATABASE_URL: a.config.databaseUrl } })
            : await createTestApp({ env, deps: { db: a.db } });
          await refuseRunEndings(a);
          await acceptRunEndings(a);
          const { user, token } = await makeUser(a.db, a.clock.now(), { planQueries: 5 });
          const ask = await a.call("POST", "/api/unisson/chat", { token, json: { message: "Quelle est la capitale de la France ?" } });
          const id = ask.body.conversation_id as number;
          const started = performance.now();
          const pending = a.call("POST", "/api/unisson/process", { token, json: { conversation_id: id } });
          const refusals: Array<Promise<unknown>> = [];
          // A step the database refuses fails as the server's own writes would: that is part of the interleaving.
          const attempt = async (work: () => Promise<unknown>) => await work().catch(() => {});
          for (const step of [...steps].sort((x, y) => x.at - y.at)) {
            await Bun.sleep(Math.max(0, step.at - (performance.now() - started)));
            if (step.what === "refuse") {
              await refuseRunEndings(a, false);
              refusals.push(Bun.sleep(step.forMs).then(() => acceptRunEndings(a)));
            } else if (step.what === "restart") await attempt(() => recoverInterruptedRuns(b.deps));
            else if (step.what === "sweep") await attempt(() => sweepDeadServersRuns(b.deps, 0));
            else await attempt(() => failOwnOrphans(a.deps));
          }
          await pending;
          await Promise.all(refusals);
          await acceptRunEndings(a);
          // What was left for "as soon as the database answers" lands within seconds of the last refusal.
          const read = async () => (await a.db.select().from(processingRuns).where(eq(processingRuns.conversationId, id)))[0]!;
          let run = await read();
          for (let i = 0; i < 80 && run.status === "running"; i++, await Bun.sleep(100)) run = await read();
          const [balance] = await a.db.select({ plan: users.planQueries }).from(users).where(eq(users.id, user.id));
          const [answers] = await a.db
            .select({ n: count() })
            .from(messages)
            .where(and(eq(messages.conversationId, id), eq(messages.messageType, "final_response")));
          if (run.status === "done") expect([run.charged, balance!.plan, answers!.n]).toEqual([true, 4, 1]);
          else expect([run.status, run.charged, balance!.plan, answers!.n]).toEqual(["failed", false, 5, 0]);
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);
});
