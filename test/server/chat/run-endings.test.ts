import { describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { LiveRun, type RunEvent } from "../../../src/chat/live-run.ts";
import { recoverInterruptedRuns } from "../../../src/chat/recovery.ts";
import { UNSEEN_IDS_MARGIN } from "../../../src/chat/run-ending.ts";
import { beatOwnRuns, failOwnOrphans, startRunLiveness, sweepDeadServersRuns } from "../../../src/chat/run-liveness.ts";
import { aiCalls, messages, processingRuns } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { readSse } from "../../helpers/sse.ts";
import { createTestClock } from "../../helpers/clock.ts";
import { SQLITE_ONLY } from "../../helpers/test-database.ts";
import { askReady, type ChatApp, chatApp, leftRunning, remaining, useFakeProviders } from "./chat.helpers.ts";

/**
 * Every way a run ends stores its outcome where a client finds it, and no
 * run outlives its server's attention: the own-orphan sweep, the restart,
 * the other servers' sweep by the database's clock, the heartbeat that does
 * not give up a run claimed while it ran, and model costs written as each call ends.
 */
const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";
/** A held run must not be abandoned as stalled (the stall limit is a third of the timeout) on a loaded box. */
const SLOW_BOX = { AI_TIMEOUT_MS: "12000" };

/** A run of `server` left "running" and charged (5 -> 4) with the events a dead process stored every 250 ms: ids 1..7. */
async function leftRunningOn(t: ChatApp, id: number, server: string) {
  const events: RunEvent[] = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ id: n, type: "model_started", data: { model: `M${n}` } }));
  return await leftRunning(t, id, { server, events });
}

async function runOf(t: ChatApp, id: number) {
  const [run] = await t.db.select().from(processingRuns).where(eq(processingRuns.conversationId, id));
  return run!;
}

/** A /process whose run stays in memory (its synthesiser waits after its first piece) until `release`. */
async function heldRun(t: ChatApp, question?: string) {
  let release!: () => void;
  fakes().control.set("claudeOpus", { synthesisPause: { afterPieces: 1, until: new Promise<void>((r) => (release = r)) } });
  const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: await askReady(t, question) } });
  for (let i = 0; i < 500 && t.deps.ai.live.size === 0; i++) await Bun.sleep(10);
  expect(t.deps.ai.live.size).toBe(1);
  return { pending, release };
}

/** What a client following the run live sees when it comes back with Last-Event-ID. */
async function resume(t: ChatApp, id: number, lastEventId: number) {
  const res = await t.app.request(`/api/unisson/conversation/${id}/events`, {
    headers: { authorization: `Bearer ${t.token}`, "last-event-id": String(lastEventId) },
  });
  return (await readSse(res)).events;
}

describe("a server's own running rows no longer in its memory", () => {
  test("are failed and refunded at its next beat, with a failed event above every id a client may have seen", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await leftRunningOn(t, id, t.deps.ai.serverId);
    expect(await failOwnOrphans(t.deps)).toBe(1);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    const run = await runOf(t, id);
    expect([run.status, run.charged]).toEqual(["failed", false]);
    expect((run.events as RunEvent[]).at(-1)).toMatchObject({ id: 7 + UNSEEN_IDS_MARGIN, type: "failed" });
    expect(t.log.lines.some((l) => l.includes("no longer carried out") && l.includes(String(run.id)))).toBe(true);
    // Seen live up to 7 and more (deltas are never stored): the resuming client still gets the end.
    const events = await resume(t, id, 250);
    expect(events.map((e) => e.event)).toEqual(["failed"]);
    // The conversation takes a new message again.
    const next = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Et Lyon ?", conversation_id: id } });
    expect(next.status).toBe(200);
  });

  test("leave alone a run in memory, and one being claimed (committed, not yet in memory)", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const inFlight = await heldRun(t);
    const claiming = await askReady(t, "Et la capitale de l'Italie ?");
    await leftRunningOn(t, claiming, t.deps.ai.serverId);
    t.deps.ai.claiming.add(claiming);
    expect(t.deps.ai.live.size).toBe(1);
    expect(await failOwnOrphans(t.deps)).toBe(0);
    t.deps.ai.claiming.delete(claiming);
    inFlight.release();
    expect((await inFlight.pending).status).toBe(200);
  });

  test("the server's liveness timers fail them at start, on either database", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await leftRunningOn(t, id, t.deps.ai.serverId);
    const timers = startRunLiveness(t.deps, { heartbeatMs: 60_000, staleMs: 60_000, sweepMs: 60_000 });
    try {
      let run = await runOf(t, id);
      for (let i = 0; i < 100 && run.status === "running"; i++, await Bun.sleep(20)) run = await runOf(t, id);
      expect([run.status, run.charged]).toEqual(["failed", false]);
      expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    } finally {
      await timers.stop();
    }
  });

  test("another server's running rows are not this server's orphans", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await leftRunningOn(t, id, "un-autre-serveur");
    expect(await failOwnOrphans(t.deps)).toBe(0);
    expect((await runOf(t, id)).status).toBe("running");
  });
});

describe("the end of a run cut by a crash reaches a client resuming with Last-Event-ID", () => {
  test.skipIf(SQLITE_ONLY)("SQLite: the restart's recovery stores a failed event above the ids seen live", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await leftRunningOn(t, id, "processus-tue");
    expect(await recoverInterruptedRuns(t.deps)).toBe(1);
    const events = await resume(t, id, 7);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe("failed");
    expect(events[0]!.id).toBeGreaterThan(7);
    expect(events[0]!.data.refunded).toBe(true);
  });

  test("another server's sweep stores its failed event above the ids seen live", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    await leftRunningOn(t, id, "serveur-mort");
    expect(await sweepDeadServersRuns(t.deps, 0)).toBe(1);
    const events = await resume(t, id, 40);
    expect(events.map((e) => [e.event, (e.id ?? 0) > 40])).toEqual([["failed", true]]);
  });

  test("a run ended before this rule (failed with no stored event) still ends the resuming client's stream", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    const run = await leftRunningOn(t, id, "ancien");
    await t.db.update(processingRuns).set({ status: "failed", error: "SERVICE_UNAVAILABLE" }).where(eq(processingRuns.id, run.id));
    const events = await resume(t, id, 7);
    expect(events.map((e) => [e.event, e.id])).toEqual([["failed", 7 + UNSEEN_IDS_MARGIN]]);
  });
});

describe("liveness by the database's clock", () => {
  test("a server whose clock is 10 minutes ahead does not take another server's live run for a dead one", async () => {
    const a = await chatApp(fakes(), { env: SLOW_BOX });
    const ahead = createTestClock(a.clock.now().getTime() + 10 * 60_000);
    const b = await createTestApp({
      env: { ...fakes().env, ...(a.config.databaseUrl ? { DATABASE_URL: a.config.databaseUrl } : {}) },
      deps: { clock: ahead, ...(a.config.databaseUrl ? {} : { db: a.db }) },
    });
    const run = await heldRun(a);
    expect(await sweepDeadServersRuns(b.deps, 30_000)).toBe(0);
    run.release();
    expect((await run.pending).status).toBe(200);
    expect(await remaining(a)).toEqual({ plan: 4, extra: 0 });
  });
});

describe("the heartbeat", () => {
  test("a run claimed while the heartbeat's UPDATE runs is not given up", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const first = await heldRun(t);
    const beat = beatOwnRuns(t.deps);
    // Claimed after the UPDATE read the table, in memory before the heartbeat looks at its memory.
    const claimedMeanwhile = new LiveRun(1_000_000, 1, 0);
    t.deps.ai.live.set(claimedMeanwhile.runId, claimedMeanwhile);
    await beat;
    t.deps.ai.live.delete(claimedMeanwhile.runId);
    expect(claimedMeanwhile.abort.signal.aborted).toBe(false);
    expect(t.log.lines.filter((l) => l.includes("run given up by another server"))).toEqual([]);
    first.release();
    expect((await first.pending).status).toBe(200);
  });

  test("refreshes only the runs in memory: a row of this server that is not is left to go stale", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    const id = await askReady(t);
    const orphan = await leftRunningOn(t, id, t.deps.ai.serverId);
    await t.db
      .update(processingRuns)
      .set({ heartbeatAt: new Date(0) })
      .where(eq(processingRuns.id, orphan.id));
    const other = await heldRun(t, "Quelle est la capitale de l'Italie ?");
    await beatOwnRuns(t.deps);
    expect((await runOf(t, id)).heartbeatAt!.getTime()).toBe(0);
    other.release();
    expect((await other.pending).status).toBe(200);
  });
});

describe("model costs", () => {
  test("each model call's cost is recorded when the call ends, before the run's outcome", async () => {
    const t = await chatApp(fakes(), { env: SLOW_BOX });
    let release!: () => void;
    fakes().control.set("claudeOpus", { synthesisPause: { afterPieces: 1, until: new Promise<void>((r) => (release = r)) } });
    const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: await askReady(t) } });
    let answers = 0;
    for (let i = 0; i < 300 && answers < 6; i++, await Bun.sleep(10)) {
      const [row] = await t.db.select({ n: count() }).from(aiCalls).where(eq(aiCalls.purpose, "answer"));
      answers = row!.n;
    }
    expect(answers).toBe(6);
    expect(await t.db.select({ n: count() }).from(messages).where(eq(messages.sender, "assistant"))).toEqual([{ n: 0 }]);
    release();
    expect((await pending).status).toBe(200);
    const [synthesis] = await t.db.select({ n: count() }).from(aiCalls).where(eq(aiCalls.purpose, "synthesis"));
    expect(synthesis!.n).toBe(1);
  });
});
