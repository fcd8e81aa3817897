import { describe, expect, test } from "bun:test";
import { pgClient } from "../../helpers/postgres.ts";
import { join } from "node:path";
import { freePort, tempDir } from "../../helpers/binary.ts";
import { TEST_SECRET_KEY } from "../../helpers/app.ts";
import { readSse, type Sse } from "../../helpers/sse.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { processingRuns } from "../../../src/db/schema/index.ts";
import { startRunLiveness, sweepDeadServersRuns } from "../../../src/chat/run-liveness.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { type Server, twoServers as twoServersOf } from "./two-servers.helpers.ts";

/**
 * Runs across servers on one PostgreSQL database, through HTTP: a run carried
 * out by one server is followed live from another (NOTIFY/LISTEN) and resumed
 * there with Last-Event-ID; a server killed mid-run has its run failed and
 * refunded by another, and the turn can be asked again; a run whose server
 * keeps its heartbeat is never touched. PostgreSQL only (TEST_DATABASE=postgres).
 */
const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";

/**
 * Two servers on one database (two-servers.helpers.ts), the fakes of this file. A stall limit (AI_TIMEOUT_MS/3)
 * of 20 s: these tests are about following and failing runs across servers, not about silent models, and under
 * a load average above 10 the fakes of this process were left unscheduled past the 5 s of AI_TIMEOUT_MS=15000
 * (every model « flux interrompu », the run failed: no `model_answered` on B, issue 46).
 */
const twoServers = (timeoutMs = 60_000) => twoServersOf(fakes(), timeoutMs);

/**
 * `server` learns of the other's stored events by NOTIFY only: its safety re-read (every 5 s) never comes during
 * a test, so what reaches it could only have been woken by a notification. Replaces a bound on the time taken.
 */
function notifiedOnly(server: Server): void {
  server.deps.ai.wakeups = { rereadMs: 600_000, follow: server.deps.ai.wakeups.follow };
}

async function ask(t: Server): Promise<number> {
  const res = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message: "Quelle est la capitale de la France ?" } });
  if (res.status !== 200 || !res.body.requires_final_processing) throw new Error(`chat: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.conversation_id;
}

async function streamProcess(t: Server, id: number): Promise<Response> {
  return await t.app.request(PROCESS, {
    method: "POST",
    headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ conversation_id: id }),
  });
}

async function events(t: Server, id: number, lastEventId?: number): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  return await t.app.request(`/api/unisson/conversation/${id}/events`, { headers });
}

async function value(url: string, query: string): Promise<unknown> {
  const sql = pgClient(url);
  try {
    const [row] = await sql.unsafe(query);
    return row?.v;
  } finally {
    await sql.close();
  }
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await Bun.sleep(50)) if (await check()) return;
  throw new Error(`${what} : pas dans les ${ms} ms`);
}

/** A question asked on `t` and its JSON /process started there, once its run is claimed: the conversation, the database, and the answer to come. */
async function processingOn(t: Server): Promise<{ id: number; url: string; pending: ReturnType<Server["call"]> }> {
  const id = await ask(t);
  const url = t.config.databaseUrl!;
  const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
  await until("run claimed", async () => (await value(url, `SELECT count(*)::int AS v FROM processing_runs WHERE conversation_id = ${id}`)) === 1, 20_000);
  return { id, url, pending };
}

/** Each event with when it arrived. */
async function timedSse(res: Response, stopAfter?: (e: Sse, all: Sse[]) => boolean): Promise<Array<Sse & { at: number }>> {
  const out: Array<Sse & { at: number }> = [];
  await readSse(res, {
    stopAfter: (e, all) => {
      out.push({ ...e, at: performance.now() });
      return stopAfter?.(e, all) ?? false;
    },
  });
  return out;
}

describe.skipIf(!onPostgres)("runs across servers on one PostgreSQL database", () => {
  test("a run carried out by server A is followed live from server B: its events arrive while it runs, in order, up to the final answer", async () => {
    const [a, b] = await twoServers();
    notifiedOnly(b);
    // The synthesis writes one piece, then waits until B has every model's answer: the run cannot end before.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    fakes().control.setAll({ latencyMs: 200, synthesisPause: { afterPieces: 1, until: released } });
    const id = await ask(a);
    const onA = timedSse(await streamProcess(a, id));
    await until(
      "run claimed",
      async () => (await value(a.config.databaseUrl!, `SELECT count(*)::int AS v FROM processing_runs WHERE conversation_id = ${id}`)) === 1,
      20_000,
    );
    let releasedAtB = -1;
    const all = await timedSse(await events(b, id), (_, list) => {
      if (releasedAtB < 0 && list.filter((e) => e.event === "model_answered").length === 6) {
        releasedAtB = list.length;
        release();
      }
      return false;
    });
    const fromA = await onA;
    expect(all[0]!.event).toBe("run_started");
    // The models' text pieces A relays come to B without an id (src/chat/run-events.ts; live-text-across-servers.test.ts):
    // the stored events, each with its id, are checked here.
    const onB = all.filter((e) => e.id !== null);
    expect(onB.filter((e) => e.event === "model_answered")).toHaveLength(6);
    expect(onB.at(-1)!.event).toBe("final");
    // In order, no event twice, each one A sent (B has no synthesis deltas: its final carries the text).
    const ids = onB.map((e) => e.id!);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    const sentByA = new Map(fromA.map((e) => [e.id, e.event]));
    for (const e of onB) expect(sentByA.get(e.id)).toBe(e.event);
    expect(onB.at(-1)!.data).toEqual(fromA.at(-1)!.data);
    // Live: every model's answer reached B while the run was still going (its synthesis waited for them),
    // and each event, up to the final answer, by a NOTIFY (B re-reads nothing by itself: notifiedOnly).
    expect(releasedAtB).toBeGreaterThan(0);
    expect(all.findIndex((e) => e.event === "final")).toBeGreaterThanOrEqual(releasedAtB);
  }, 30_000);

  test("a client of server B that comes back with Last-Event-ID gets only the later events, up to the final answer", async () => {
    const [a, b] = await twoServers();
    fakes().control.setAll({ latencyMs: 300, synthesisDurationMs: 800 });
    const id = await ask(a);
    const onA = readSse(await streamProcess(a, id));
    await until(
      "run claimed",
      async () => (await value(a.config.databaseUrl!, `SELECT count(*)::int AS v FROM processing_runs WHERE conversation_id = ${id}`)) === 1,
      20_000,
    );
    // The run's events but the models' texts: the pieces A relays come to B without an id, and the texts so far
    // that B reads in the row while the run goes on are no longer stored once it ended (its message holds them).
    const stored = (list: Array<Sse & { at: number }>) => list.filter((e) => e.id !== null && e.event !== "model_delta");
    const first = stored(await timedSse(await events(b, id), (_, all) => stored(all as Array<Sse & { at: number }>).length === 3));
    const resumeAt = first.at(-1)!.id!;
    const rest = stored(await timedSse(await events(b, id, resumeAt)));
    await onA;
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((e) => e.id! > resumeAt)).toBe(true);
    expect(rest.at(-1)!.event).toBe("final");
    // Together, exactly what a replay of the whole run gives: nothing lost, nothing twice.
    const whole = stored(await timedSse(await events(b, id)));
    expect([...first, ...rest].map((e) => e.id)).toEqual(whole.map((e) => e.id));
  }, 30_000);

  test("a run whose server keeps its heartbeat is never touched by the other server's sweep, nor by its own server's", async () => {
    const [a, b] = await twoServers();
    const fast = { heartbeatMs: 150, staleMs: 1000, sweepMs: 150 };
    const timers = [startRunLiveness(a.deps, fast), startRunLiveness(b.deps, fast)];
    try {
      // A run three times longer than the staleness: only A's heartbeat keeps it fresh.
      fakes().control.setAll({ latencyMs: 200, synthesisDurationMs: 3000 });
      const { id, url, pending } = await processingOn(a);
      // Its own server, even asked to sweep everything older than now, leaves it alone.
      expect(await sweepDeadServersRuns(a.deps, 0)).toBe(0);
      const res = await pending;
      expect(res.status).toBe(200);
      expect(await value(url, `SELECT status || ':' || charged AS v FROM processing_runs WHERE conversation_id = ${id}`)).toBe("done:true");
      expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(4);
      expect(b.log.lines.filter((l) => l.includes("run of a dead server refunded"))).toEqual([]);
    } finally {
      await Promise.all(timers.map((t) => t.stop()));
    }
  }, 30_000);

  test("two servers sweeping the same dead server's run at once refund it once", async () => {
    const [a, b] = await twoServers();
    const id = await ask(a);
    const url = a.config.databaseUrl!;
    const turn = Number(await value(url, `SELECT max(id) AS v FROM messages WHERE conversation_id = ${id}`));
    const long = new Date(Date.now() - 5 * 60_000);
    // A run a dead server charged from the plan (5 -> 4) and stopped beating five minutes ago.
    await a.db.insert(processingRuns).values({
      conversationId: id,
      turnMessageId: turn,
      userId: a.userId,
      status: "running",
      charged: true,
      chargedFrom: "plan",
      createdAt: long,
      server: "mort-1",
      heartbeatAt: long,
      events: [],
    });
    const sql = pgClient(url);
    await sql.unsafe(`UPDATE users SET plan_queries = 4 WHERE id = ${a.userId}`);
    await sql.close();
    const counts = await Promise.all([sweepDeadServersRuns(a.deps), sweepDeadServersRuns(b.deps), sweepDeadServersRuns(a.deps)]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(5);
    expect(await value(url, `SELECT status || ':' || charged || ':' || error AS v FROM processing_runs WHERE conversation_id = ${id}`)).toBe(
      "failed:false:SERVICE_UNAVAILABLE",
    );
    // The turn can be asked again, on either server.
    const again = await b.call("POST", PROCESS, { token: b.token, json: { conversation_id: id } });
    expect(again.status).toBe(200);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(4);
  });

  test("a server that stalls past the staleness has its run refunded by the other; when its run then fails, it does not refund again", async () => {
    const [a, b] = await twoServers();
    // A beats no heartbeat (as if its event loop were stuck); its models fail after a while.
    fakes().control.setAll({ latencyMs: 1500, fail: 500, failOn: ["answer"] });
    const { url, pending } = await processingOn(a);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(4);
    await Bun.sleep(300);
    expect(await sweepDeadServersRuns(b.deps, 200)).toBe(1);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(5);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(5);
  }, 30_000);

  test("a stalled server's late answer is dropped once the other has failed its run and answered the retry: one answer, charged once", async () => {
    const [a, b] = await twoServers();
    fakes().control.setAll({ latencyMs: 200, synthesisDurationMs: 2500 });
    const { id, url, pending: onA } = await processingOn(a);
    await Bun.sleep(300);
    expect(await sweepDeadServersRuns(b.deps, 200)).toBe(1);
    const onB = await b.call("POST", PROCESS, { token: b.token, json: { conversation_id: id } });
    expect(onB.status).toBe(200);
    expect((await onA).status).toBe(503);
    expect(await value(url, `SELECT status || ':' || charged || ':' || server AS v FROM processing_runs WHERE conversation_id = ${id}`)).toBe(
      `done:true:${b.deps.ai.serverId}`,
    );
    expect(await value(url, `SELECT count(*)::int AS v FROM messages WHERE conversation_id = ${id} AND sender = 'assistant'`)).toBe(1);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(4);
  }, 30_000);

  test("a server that stalled and finds its run given up by the other stops its model calls at its next heartbeat", async () => {
    const [a, b] = await twoServers();
    // The models never answer, and A's calls would end at their 60 s deadline, after this test's 45 s: only
    // the heartbeat's abort ends A's run in time (a bound on the time taken, under load, failed for no reason).
    fakes().control.setAll({ latencyMs: 600_000 });
    const { id, url, pending } = await processingOn(a);
    await Bun.sleep(300);
    expect(await sweepDeadServersRuns(b.deps, 200)).toBe(1);
    // A comes back to life: its heartbeat finds the run no longer its own and aborts the calls.
    const timers = startRunLiveness(a.deps, { heartbeatMs: 100, staleMs: 60_000, sweepMs: 60_000 });
    try {
      const res = await pending;
      expect(res.status).toBe(503);
      expect(a.deps.ai.live.size).toBe(0);
      expect(await value(url, `SELECT status || ':' || server AS v FROM processing_runs WHERE conversation_id = ${id}`)).toBe(`failed:${a.deps.ai.serverId}`);
      expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(5);
    } finally {
      await timers.stop();
    }
  }, 45_000);

  test("a server sweeps the dead servers' runs as it starts, not one sweep period later", async () => {
    const [a, b] = await twoServers();
    fakes().control.setAll({ latencyMs: 40_000 });
    const { id, url, pending } = await processingOn(a);
    await Bun.sleep(300);
    // B starts with a sweep period far longer than the test: only a sweep at start refunds the run in time.
    const timers = startRunLiveness(b.deps, { heartbeatMs: 60_000, staleMs: 200, sweepMs: 60_000 });
    try {
      // Far below the 60 s sweep period, whatever the load.
      await until(
        "run failed by B",
        async () => (await value(url, `SELECT status AS v FROM processing_runs WHERE conversation_id = ${id}`)) === "failed",
        20_000,
      );
      expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(5);
    } finally {
      await timers.stop();
      // A's calls would wait on the models for 40 s more: stopped here, as its own heartbeat would.
      for (const live of a.deps.ai.live.values()) live.abort.abort();
      await pending;
    }
  }, 30_000);

  test("a JSON /process on server B for a run carried out by A answers as A stores its answer (woken by NOTIFY)", async () => {
    const [a, b] = await twoServers();
    // B's answer can only come from a notification: its re-read would wait 600 s, past the test's 30.
    notifiedOnly(b);
    fakes().control.setAll({ latencyMs: 200, synthesisDurationMs: 1500 });
    const { id, url, pending: onA } = await processingOn(a);
    const onB = b.call("POST", PROCESS, { token: b.token, json: { conversation_id: id } });
    const [fromA, fromB] = await Promise.all([onA, onB]);
    expect(fromB.status).toBe(200);
    expect(fromB.body).toEqual(fromA.body);
    expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${a.userId}`)).toBe(4);
  }, 30_000);

  test("a server killed mid-run (kill -9): the other fails and refunds its run, its followers hear it, and the turn is retried there", async () => {
    const [, b] = await twoServers();
    const url = b.config.databaseUrl!;
    const dir = tempDir("unisson-runs-pg-");
    const port = freePort();
    const root = join(import.meta.dir, "..", "..", "..");
    const a = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        ...fakes().env,
        AI_TIMEOUT_MS: "60000",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATABASE_URL: url,
        SECRET_KEY: TEST_SECRET_KEY,
        DATA_DIR: dir.path,
        LOG_LEVEL: "warn",
      },
      stdout: "ignore",
      stderr: "ignore",
    });
    let timers: { stop(): Promise<void> } | undefined;
    try {
      await until(
        "server A up",
        async () => {
          try {
            return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
          } catch {
            return false;
          }
        },
        30_000,
      );
      // The models take far longer than the test: A is killed while it waits on them.
      fakes().control.setAll({ latencyMs: 60_000 });
      const id = await ask(b);
      const started = await fetch(`http://127.0.0.1:${port}${PROCESS}`, {
        method: "POST",
        headers: { authorization: `Bearer ${b.token}`, "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ conversation_id: id }),
      });
      const firstOnA = await readSse(started, { stopAfter: () => true });
      expect(firstOnA.events[0]!.event).toBe("run_started");
      await until(
        "run_started stored",
        async () =>
          (await value(url, `SELECT count(*)::int AS v FROM processing_runs WHERE conversation_id = ${id} AND events::text LIKE '%run_started%'`)) === 1,
        5000,
      );
      expect(await value(url, `SELECT server AS v FROM processing_runs WHERE conversation_id = ${id}`)).not.toBe(b.deps.ai.serverId);
      expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${b.userId}`)).toBe(4);
      const follower = timedSse(await events(b, id));
      a.kill("SIGKILL");
      await a.exited;
      // B's timers as in production, but for the figures (staleness 2 s instead of 30 s).
      const killedAt = performance.now();
      timers = startRunLiveness(b.deps, { heartbeatMs: 200, staleMs: 2000, sweepMs: 200 });
      await until(
        "run failed by B",
        async () => (await value(url, `SELECT status AS v FROM processing_runs WHERE conversation_id = ${id}`)) === "failed",
        20_000,
      );
      expect(performance.now() - killedAt).toBeLessThan(20_000);
      expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${b.userId}`)).toBe(5);
      const heard = await follower;
      expect(heard.map((e) => e.event)).toEqual(["run_started", ...heard.slice(1, -1).map((e) => e.event), "failed"]);
      expect(heard.at(-1)!.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", refunded: true });
      // The turn again, on B: answered, charged once.
      fakes().control.reset();
      const again = await b.call("POST", PROCESS, { token: b.token, json: { conversation_id: id } });
      expect(again.status).toBe(200);
      expect(again.body.final_response).toContain("Paris");
      expect(await value(url, `SELECT status || ':' || server AS v FROM processing_runs WHERE conversation_id = ${id}`)).toBe(`done:${b.deps.ai.serverId}`);
      expect(await value(url, `SELECT plan_queries AS v FROM users WHERE id = ${b.userId}`)).toBe(4);
    } finally {
      a.kill("SIGKILL");
      await timers?.stop();
      dir.cleanup();
    }
  }, 60_000);
});
