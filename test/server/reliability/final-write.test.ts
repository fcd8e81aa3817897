import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDb, SERVER_BUSY_TIMEOUT_MS } from "../../../src/db/client.ts";
import { processingRuns, users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { tempDir } from "../../helpers/binary.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";

/**
 * A run whose final write meets another process holding the SQLite write
 * lock (test/helpers/lock-holder.ts): the write is retried; if it still
 * cannot be written, the run is failed and refunded as soon as the lock is
 * gone, logged at error with the run id, and the conversation is free again.
 * SQLite only: the lock is SQLite's file lock.
 */
const fakes = useFakeProviders();
const root = join(import.meta.dir, "..", "..", "..");
const dirs: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

async function fileApp() {
  const dir = tempDir("unisson-final-write-");
  dirs.push(dir);
  const file = join(dir.path, "unisson.db");
  const t = await createTestApp({ env: { ...fakes().env, AI_TIMEOUT_MS: "6000" }, deps: { db: openDb(file, SERVER_BUSY_TIMEOUT_MS) } });
  const { user, token } = await makeUser(t.db, t.clock.now(), { planQueries: 5 });
  const ask = await t.call("POST", "/api/unisson/chat", { token, json: { message: "Quelle est la capitale de la France ?" } });
  return { ...t, file, user, token, id: ask.body.conversation_id as number };
}

async function holdLock(file: string, ms: number) {
  const proc = Bun.spawn([process.execPath, join(root, "test/helpers/lock-holder.ts"), file, String(ms)], { stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  if (!new TextDecoder().decode(value).includes("locked")) throw new Error(await new Response(proc.stderr).text());
  reader.releaseLock();
  return proc;
}

/**
 * A /process whose synthesiser stops after its first piece: the answers and
 * their costs are written by then; the lock is taken, then the synthesis
 * released, so the run's final write is the first write to meet the lock.
 */
async function pausedSynthesis(t: Awaited<ReturnType<typeof fileApp>>) {
  let release!: () => void;
  let paused!: () => void;
  const reached = new Promise<void>((r) => (paused = r));
  const until = new Promise<void>((r) => (release = r));
  fakes().control.set("claudeOpus", { synthesisPause: { afterPieces: 1, until: until.finally(() => {}) } });
  const original = fakes().control.synthesis;
  fakes().control.synthesis = (prompt, model) => {
    paused();
    return original(prompt, model);
  };
  const pending = t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: t.id } });
  await reached;
  // The first piece is on its way; the answers' rows and the run's events had time to be written.
  await Bun.sleep(400);
  return {
    pending,
    async lockThenRelease(ms: number) {
      const holder = await holdLock(t.file, ms);
      release();
      return holder;
    },
  };
}

async function stateOf(t: Awaited<ReturnType<typeof fileApp>>) {
  const [run] = await t.db.select().from(processingRuns).where(eq(processingRuns.conversationId, t.id));
  const [user] = await t.db.select({ plan: users.planQueries }).from(users).where(eq(users.id, t.user.id));
  return { status: run?.status, charged: run?.charged, plan: user!.plan, runId: run?.id };
}

describe.skipIf(process.env.TEST_DATABASE === "postgres")("the run's final write under another process's write lock", () => {
  test("a lock held past every retry: the run is failed and refunded once the lock is gone, logged at error with its id; the conversation is free", async () => {
    const t = await fileApp();
    const { pending, lockThenRelease } = await pausedSynthesis(t);
    const holder = await lockThenRelease(9000);
    const res = await pending;
    expect(res.status).toBe(503);
    await holder.exited;
    let state = await stateOf(t);
    for (let i = 0; i < 80 && state.status === "running"; i++, await Bun.sleep(100)) state = await stateOf(t);
    expect(state).toMatchObject({ status: "failed", charged: false, plan: 5 });
    expect(t.log.lines.some((l) => l.includes("ERROR") && l.includes("run outcome not written") && l.includes(`run=${state.runId}`))).toBe(true);
    const next = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Et quelle est celle de l'Italie ?", conversation_id: t.id } });
    expect(next.status).toBe(200);
  }, 30_000);

  test("a lock shorter than the retries: the answer is stored and charged once", async () => {
    const t = await fileApp();
    const { pending, lockThenRelease } = await pausedSynthesis(t);
    const holder = await lockThenRelease(1500);
    const res = await pending;
    await holder.exited;
    if (res.status !== 200) console.log(JSON.stringify(res.body), t.log.lines.filter((l) => !l.includes("INFO")).join("\n"));
    expect(res.status).toBe(200);
    expect(await stateOf(t)).toMatchObject({ status: "done", charged: true, plan: 4 });
  }, 30_000);
});
