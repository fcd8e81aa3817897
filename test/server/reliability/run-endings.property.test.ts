import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { and, count, eq } from "drizzle-orm";
import fc from "fast-check";
import { recoverInterruptedRuns } from "../../../src/chat/recovery.ts";
import { failOwnOrphans, sweepDeadServersRuns } from "../../../src/chat/run-liveness.ts";
import { openDb, SERVER_BUSY_TIMEOUT_MS } from "../../../src/db/client.ts";
import { messages, processingRuns, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { tempDir } from "../../helpers/binary.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";

/**
 * For any interleaving of a final write failure (another process holding the
 * SQLite write lock for a while), a restart (the next start's recovery, by a
 * second app on the same file) and a sweep (another server's, treating the
 * run as dead), every run ends failed-and-refunded or done-and-charged, once:
 * never running, never charged without its answer, never refunded twice.
 * SQLite only (the lock is SQLite's file lock; the PostgreSQL sweep is in
 * test/server/scaling/runs-across-servers.test.ts and chat/run-endings.test.ts).
 */
const fakes = useFakeProviders();
const root = join(import.meta.dir, "..", "..", "..");
const dirs: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

type Step = { at: number; what: "lock" | "restart" | "sweep" | "orphans"; lockMs: number };

async function holdLock(file: string, ms: number) {
  const proc = Bun.spawn([process.execPath, join(root, "test/helpers/lock-holder.ts"), file, String(ms)], { stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  return proc;
}

describe.skipIf(process.env.TEST_DATABASE === "postgres")("property: final write failure, restart and sweep in any order", () => {
  test("every run ends failed-and-refunded or done-and-charged, once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 1500 }),
            what: fc.constantFrom("lock" as const, "restart" as const, "sweep" as const, "orphans" as const),
            lockMs: fc.integer({ min: 300, max: 6000 }),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        async (steps: Step[]) => {
          fakes().control.reset();
          fakes().control.setAll({ latencyMs: 600 });
          const dir = tempDir("unisson-endings-");
          dirs.push(dir);
          const file = join(dir.path, "unisson.db");
          const db = openDb(file, SERVER_BUSY_TIMEOUT_MS);
          const env = { ...fakes().env, AI_TIMEOUT_MS: "6000" };
          const a = await createTestApp({ env, deps: { db } });
          // Another server on the same file (its own id): its sweep and, as the next start, its recovery.
          const b = await createTestApp({ env, deps: { db } });
          const { user, token } = await makeUser(a.db, a.clock.now(), { planQueries: 5 });
          const ask = await a.call("POST", "/api/unisson/chat", { token, json: { message: "Quelle est la capitale de la France ?" } });
          const id = ask.body.conversation_id as number;
          const started = performance.now();
          const pending = a.call("POST", "/api/unisson/process", { token, json: { conversation_id: id } });
          const holders: Array<ReturnType<typeof Bun.spawn>> = [];
          for (const step of [...steps].sort((x, y) => x.at - y.at)) {
            await Bun.sleep(Math.max(0, step.at - (performance.now() - started)));
            // A step that meets the lock fails like the server's own writes would: that is part of the interleaving.
            const attempt = async (work: () => Promise<unknown>) => await work().catch(() => {});
            if (step.what === "lock") holders.push(await holdLock(file, step.lockMs));
            else if (step.what === "restart") await attempt(() => recoverInterruptedRuns(b.deps));
            else if (step.what === "sweep") await attempt(() => sweepDeadServersRuns(b.deps, 0));
            else await attempt(() => failOwnOrphans(a.deps));
          }
          await pending;
          await Promise.all(holders.map((h) => h.exited));
          // Whatever was left for "as soon as the database answers" lands within a few seconds of the lock's end.
          const read = async () => (await a.db.select().from(processingRuns).where(eq(processingRuns.conversationId, id)))[0]!;
          let run = await read();
          for (let i = 0; i < 80 && run.status === "running"; i++, await Bun.sleep(100)) run = await read();
          const [balance] = await a.db.select({ plan: users.planQueries }).from(users).where(eq(users.id, user.id));
          const [answers] = await a.db
            .select({ n: count() })
            .from(messages)
            .where(and(eq(messages.conversationId, id), eq(messages.messageType, "final_response")));
          if (run.status === "done") {
            expect([run.charged, balance!.plan, answers!.n]).toEqual([true, 4, 1]);
          } else {
            expect([run.status, run.charged, balance!.plan, answers!.n]).toEqual(["failed", false, 5, 0]);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);
});
