import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { SQLITE_ONLY } from "../../helpers/test-database.ts";
import { readSse, type Sse } from "../../helpers/sse.ts";
import { askReady, type ChatApp, chatApp, remaining, runAskedModels, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";

async function streamProcess(t: ChatApp, id: number, headers: Record<string, string> = {}): Promise<Response> {
  return t.app.request(PROCESS, {
    method: "POST",
    headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify({ conversation_id: id }),
  });
}

async function events(t: ChatApp, id: number, lastEventId?: number): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  return t.app.request(`/api/unisson/conversation/${id}/events`, { headers });
}

const types = (list: Sse[]) => list.map((e) => e.event);

describe("live answers: a run on the server, streamed as Server-Sent Events", () => {
  test("the event sequence of a normal run, ending with the same answer JSON /process gives", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const res = await streamProcess(t, id);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const { events: list } = await readSse(res);
    const kinds = types(list);
    expect(kinds[0]).toBe("run_started");
    expect(list[0]!.data.models).toHaveLength(6);
    expect(kinds.filter((k) => k === "model_started")).toHaveLength(6);
    expect(kinds.filter((k) => k === "model_answered")).toHaveLength(6);
    const answered = list.find((e) => e.event === "model_answered")!.data;
    expect(answered.tokens_out).toBeGreaterThan(0);
    expect(answered.cost_eur).toBeGreaterThan(0);
    expect(kinds.indexOf("synthesis_started")).toBeGreaterThan(kinds.lastIndexOf("model_answered"));
    expect(kinds.at(-1)).toBe("final");
    const written = list
      .filter((e) => e.event === "synthesis_delta")
      .map((e) => e.data.text)
      .join("");
    expect(written).toContain("## Points de consensus");
    expect(list.map((e) => e.id)).toEqual(list.map((_, i) => i + 1));
    const json = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    expect(list.at(-1)!.data).toEqual(json.body);
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });

  test("a client that disconnects resumes with Last-Event-ID: no event lost, none twice", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ latencyMs: 150, synthesisDurationMs: 300 });
    const id = await askReady(t);
    const first = await readSse(await streamProcess(t, id), { stopAfter: (_, all) => all.length === 3 });
    expect(first.events.map((e) => e.id)).toEqual([1, 2, 3]);
    const rest = await readSse(await events(t, id, 3));
    expect(rest.events[0]!.id).toBe(4);
    const ids = [...first.events, ...rest.events].map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(rest.events.at(-1)!.event).toBe("final");
  });

  test("after the end, the events route replays the stored events and the final answer", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    const { events: list } = await readSse(await events(t, id));
    expect(types(list)[0]).toBe("run_started");
    expect(types(list).at(-1)).toBe("final");
    expect(types(list)).not.toContain("synthesis_delta");
    expect(list.at(-1)!.data.final_response).toContain("## Réponse consolidée");
  });

  test("a model past the soft deadline is left out and named; the answer does not wait for it", async () => {
    // GPT-4 would answer after 20 s and its stall limit (AI_TIMEOUT_MS/3) is 10 s: a run over in less than 10 s did not
    // wait for it. The others answer at once when the machine is quiet; 3 s of soft deadline leaves them room when not.
    const t = await chatApp(fakes(), { env: { AI_SOFT_DEADLINE_MS: "3000", AI_TIMEOUT_MS: "30000" } });
    fakes().control.set("gpt4", { latencyMs: 20_000, failOn: ["answer"] });
    const id = await askReady(t);
    const started = performance.now();
    const { events: list } = await readSse(await streamProcess(t, id));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(list.find((e) => e.event === "model_left_out")!.data.model).toBe("GPT-4");
    const final = list.at(-1)!.data;
    expect(final.available_ais).toHaveLength(5);
    expect(final.message.result_data.failed_ais[0]).toMatchObject({ name: "GPT-4" });
    expect(final.message.result_data.failed_ais[0].error).toContain("délai dépassé");
    const gpt = final.message.result_data.models.find((m: { name: string }) => m.name === "GPT-4");
    expect(gpt.status).toBe("left_out");
  });

  test("the soft deadline waits for the quorum: with two answers in, the third is awaited", async () => {
    // Sonar Pro's 1.5 s latency stays far below the stall limit (AI_TIMEOUT_MS/3 = 5 s), even on a loaded machine.
    const t = await chatApp(fakes(), { env: { AI_SOFT_DEADLINE_MS: "100", AI_QUORUM: "3", AI_TIMEOUT_MS: "15000" } });
    for (const m of ["claudeOpus", "claudeHaiku", "geminiPro"] as const) fakes().control.set(m, { fail: 500, failOn: ["answer"] });
    fakes().control.set("mistralLarge", { latencyMs: 600 });
    fakes().control.set("sonarPro", { latencyMs: 1500 });
    const id = await askReady(t);
    const started = performance.now();
    const res = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    expect(performance.now() - started).toBeGreaterThan(1400);
    expect(res.body.available_ais.sort()).toEqual(["GPT-4", "Mistral Large", "Sonar Pro"]);
  });

  test("a synthesis stream that stalls falls over to the next synthesiser, whose text replaces it", async () => {
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "3000" } });
    fakes().control.set("claudeOpus", { fail: "stall", failOn: ["synthesis"] });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const failed = list.find((e) => e.event === "synthesis_failed")!;
    expect(failed.data).toMatchObject({ model: "Claude Opus 4.1" });
    expect(failed.data.reason).toContain("flux interrompu");
    expect(list.filter((e) => e.event === "synthesis_started").map((e) => e.data.model)).toEqual(["Claude Opus 4.1", "GPT-4"]);
    expect(list.at(-1)!.data.primary_ai).toBe("GPT-4");
  });

  test("a proxy that closes connections silent for 2 s still delivers the answer: heartbeats", async () => {
    // Models silent 3 s, longer than the proxy waits; heartbeats twenty times more often than it waits. With a 1 s
    // proxy, a loaded machine that paused this one process (server and reader alike) for a second failed it once in
    // a full run: the reader's timer and the late heartbeat were both due, and the timer ran first. Their stall limit
    // (AI_TIMEOUT_MS/3 = 10 s) is far above their 3 s of silence: with 5 s of timeout and 1.5 s of silence it was
    // 1,667 ms, and a loaded machine's first token, a little late, made every model a stall (failed 6 runs of 6).
    const t = await chatApp(fakes(), { env: { AI_TIMEOUT_MS: "30000" } });
    t.deps.ai.heartbeatMs = 100;
    fakes().control.setAll({ latencyMs: 3000 });
    const id = await askReady(t);
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: t.app.fetch, idleTimeout: 0 });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}${PROCESS}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ conversation_id: id }),
      });
      const { events: list, comments } = await readSse(res, { dropAfterSilenceMs: 2000 });
      expect(comments).toBeGreaterThan(5);
      expect(list.at(-1)!.event).toBe("final");
    } finally {
      server.stop(true);
    }
  });

  test("the stream, the JSON call and a reload at once: one run, charged once, one answer", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ latencyMs: 100 });
    const id = await askReady(t);
    const [stream, json, reload] = await Promise.all([
      streamProcess(t, id).then((r) => readSse(r)),
      t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } }),
      // Once the run has asked its models (a fixed 30 ms raced its start on a loaded machine, and the reload found no run).
      runAskedModels(fakes()).then(async () => readSse(await events(t, id))),
    ]);
    expect(json.status).toBe(200);
    expect(stream.events.at(-1)!.data.message.id).toBe(json.body.message.id);
    expect(reload.events.at(-1)!.data.message.id).toBe(json.body.message.id);
    expect(fakes().control.callsOf("synthesis")).toHaveLength(1);
    expect(await remaining(t)).toEqual({ plan: 4, extra: 0 });
  });

  // Two processes on one SQLite file (the CLI's case); on PostgreSQL, test/server/scaling/runs-across-servers.test.ts follows a run from another server.
  test.skipIf(SQLITE_ONLY)("a client of another server process on the same database follows the run from its stored events", async () => {
    const dir = mkdtempSync(join(tmpdir(), "unisson-live-"));
    try {
      const env = { ...fakes().env, DATABASE_PATH: join(dir, "shared.db"), AI_TIMEOUT_MS: "5000" };
      const a = await createTestApp({ env });
      const b = await createTestApp({ env });
      const { token } = await makeUser(a.db, a.clock.now());
      fakes().control.setAll({ latencyMs: 200, synthesisLatencyMs: 600 });
      const chat = await a.call("POST", "/api/unisson/chat", { token, json: { message: "Quelle est la capitale de la France ?" } });
      const id = chat.body.conversation_id;
      const running = a.call("POST", PROCESS, { token, json: { conversation_id: id } });
      await Bun.sleep(450);
      const res = await b.app.request(`/api/unisson/conversation/${id}/events`, { headers: { authorization: `Bearer ${token}` } });
      const { events: list } = await readSse(res);
      expect(list.filter((e) => e.event === "model_answered")).toHaveLength(6);
      expect(list.at(-1)!.event).toBe("final");
      expect(list.at(-1)!.data.message.id).toBe((await running).body.message.id);
      a.db.$client.close();
      b.db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the events of another user's conversation: 404, like a missing one", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const other = await chatApp(fakes());
    const res = await other.app.request(`/api/unisson/conversation/${id}/events`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(res.status).toBe(404);
  });

  test("a stream asked for a failing run ends with `failed`, refunded, and the answers the models gave", async () => {
    const t = await chatApp(fakes());
    fakes().control.setAll({ fail: 500, failOn: ["synthesis"] });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const last = list.at(-1)!;
    expect(last.event).toBe("failed");
    expect(last.data.refunded).toBe(true);
    expect(last.data.detail).toContain("synthèse");
    expect(last.data.answers).toHaveLength(6);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
  });
});
