import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { processingRuns } from "../../../src/db/schema/index.ts";
import { readSse, type Sse } from "../../helpers/sse.ts";
import { LONG_ANSWER, modelTexts } from "../../helpers/model-texts.ts";
import { askReady, type ChatApp, chatApp, useFakeProviders } from "./chat.helpers.ts";

/**
 * Each model writing, live (issue 34): every model's answer reaches the
 * clients of the run as `model_delta` pieces while it is written, a client
 * that comes back gets each model's text so far in one piece, and the
 * database gets checkpoints of the texts, never each delta.
 */
const fakes = useFakeProviders();
/**
 * No model here is slow on purpose past a second: a 60 s limit (a model
 * silent for 20 s is stalled) so that a test process paused by a busy box,
 * its fake and its server alike, never reads as a stalled model (one left
 * with no piece failed the first test under load).
 */
const app = (env: Record<string, string> = {}) => chatApp(fakes(), { env: { AI_TIMEOUT_MS: "60000", ...env } });
const PROCESS = "/api/unisson/process";

async function streamProcess(t: ChatApp, id: number): Promise<Response> {
  return await t.app.request(PROCESS, {
    method: "POST",
    headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ conversation_id: id }),
  });
}

async function events(t: ChatApp, id: number, lastEventId?: number): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${t.token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  return await t.app.request(`/api/unisson/conversation/${id}/events`, { headers });
}

describe("each model writing, live", () => {
  test("each model's text arrives in pieces while it writes, before that model's answer is announced, and adds up to its answer", async () => {
    const t = await app();
    fakes().control.setAll({ latencyMs: 100, durationMs: 1200, answer: LONG_ANSWER });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const final = list.at(-1)!;
    expect(final.event).toBe("final");
    const written = modelTexts(list);
    for (const name of list[0]!.data.models as string[]) {
      const answeredAt = list.findIndex((e) => e.event === "model_answered" && e.data.model === name);
      const pieces = list.filter((e) => e.event === "model_delta" && e.data.model === name);
      expect(pieces.length).toBeGreaterThan(1);
      expect(list.indexOf(pieces[0]!)).toBeLessThan(answeredAt);
      expect(list.indexOf(pieces.at(-1)!)).toBeLessThan(answeredAt);
      expect(written[name]).toBe(LONG_ANSWER);
    }
  });

  test("the deltas are gathered: about one piece per model every 100 ms, not one per token", async () => {
    const t = await app();
    // 1,200 tokens-like pieces in 600 ms (the fake cuts the answer into ~12 pieces; a long answer has many more).
    fakes().control.setAll({ latencyMs: 50, durationMs: 600, answer: `${LONG_ANSWER} ${LONG_ANSWER} ${LONG_ANSWER}` });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const gpt = list.filter((e) => e.event === "model_delta" && e.data.model === "GPT-4");
    // 600 ms of writing at one flush per 100 ms: at most 7 or so pieces plus the last; never one per delta.
    expect(gpt.length).toBeLessThanOrEqual(10);
    expect(modelTexts(list)["GPT-4"]).toBe(`${LONG_ANSWER} ${LONG_ANSWER} ${LONG_ANSWER}`);
  });

  test("the synthesis's deltas are gathered too: a few pieces a second, not one per token, the same text (issue 46)", async () => {
    const t = await app();
    // 120 pieces in 600 ms, as a real synthesis streams its tokens.
    const synthesis = ["## Réponse consolidée", `${LONG_ANSWER} ${LONG_ANSWER}`, "## Points de consensus", LONG_ANSWER, "## Divergences", "Aucune."].join("\n");
    fakes().control.setAll({ latencyMs: 50, synthesisDurationMs: 600, pieces: 120, synthesisAnswer: synthesis });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const pieces = list.filter((e) => e.event === "synthesis_delta");
    // 600 ms of writing at one flush per 100 ms: 7 or so pieces plus the last; never one per token (120).
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.length).toBeLessThanOrEqual(12);
    expect(pieces.map((e) => e.data.text).join("")).toBe(synthesis);
    expect(list.at(-1)!.event).toBe("final");
  });

  test("a client that comes back with Last-Event-ID gets each model's text so far in one piece, then the rest", async () => {
    const t = await app();
    fakes().control.setAll({ latencyMs: 100, durationMs: 2000, answer: LONG_ANSWER });
    const id = await askReady(t);
    const first = await readSse(await streamProcess(t, id), { stopAfter: (_, all) => all.filter((e) => e.event === "model_delta").length >= 12 });
    const seen = modelTexts(first.events);
    const lastId = first.events.at(-1)!.id!;
    // Away for a while: each model writes several pieces meanwhile.
    await Bun.sleep(600);
    const rest = await readSse(await events(t, id, lastId));
    // Per model, the first piece of the resumed stream is its whole text so far (from 0), not the deltas it missed.
    const firstPieces = new Map<string, Sse>();
    for (const e of rest.events) if (e.event === "model_delta" && !firstPieces.has(e.data.model)) firstPieces.set(e.data.model, e);
    expect(firstPieces.size).toBeGreaterThan(0);
    for (const [model, e] of firstPieces) {
      expect(e.data.from).toBe(0);
      expect(e.data.text.startsWith(seen[model] ?? "")).toBe(true);
      expect(e.data.text.length).toBeGreaterThan((seen[model] ?? "").length);
    }
    expect(rest.events.every((e) => e.id! > lastId)).toBe(true);
    const all = modelTexts(rest.events, seen);
    for (const name of first.events[0]!.data.models as string[]) expect(all[name]).toBe(LONG_ANSWER);
    expect(rest.events.at(-1)!.event).toBe("final");
  });

  test("a reload mid-run (no Last-Event-ID) gets every model's text so far, one piece each, before the pieces that follow", async () => {
    const t = await app();
    fakes().control.setAll({ latencyMs: 100, durationMs: 2500, answer: LONG_ANSWER });
    const id = await askReady(t);
    const running = readSse(await streamProcess(t, id));
    await readSse(await events(t, id), { stopAfter: (e) => e.event === "model_delta" });
    await Bun.sleep(800);
    const { events: list } = await readSse(await events(t, id), { stopAfter: (e) => e.event === "model_answered" || e.event === "final" });
    const caughtUp = list.filter((e) => e.event === "model_delta");
    const models = new Set(caughtUp.map((e) => e.data.model));
    // The replay: the six texts so far, each from 0 and longer than a first piece.
    const replay = caughtUp.slice(0, models.size);
    expect(new Set(replay.map((e) => e.data.model)).size).toBe(replay.length);
    for (const e of replay) {
      expect(e.data.from).toBe(0);
      expect(LONG_ANSWER.startsWith(e.data.text)).toBe(true);
      expect(e.data.text.length).toBeGreaterThan(100);
    }
    await running;
  });

  test("the database gets the texts so far as checkpoints, one entry per model, and none once the run is over", async () => {
    const t = await app();
    fakes().control.setAll({ latencyMs: 100, durationMs: 2500, answer: LONG_ANSWER });
    const id = await askReady(t);
    const running = readSse(await streamProcess(t, id));
    await Bun.sleep(1800);
    const [during] = await t.db.select().from(processingRuns).where(eq(processingRuns.conversationId, id));
    const stored = (during!.events ?? []) as Array<{ type: string; data: { model: string; from: number; text: string } }>;
    const pieces = stored.filter((e) => e.type === "model_delta");
    expect(pieces.length).toBeGreaterThan(0);
    expect(new Set(pieces.map((e) => e.data.model)).size).toBe(pieces.length);
    for (const e of pieces) expect(e.data.from).toBe(0);
    await running;
    const [after] = await t.db.select().from(processingRuns).where(eq(processingRuns.conversationId, id));
    expect(((after!.events ?? []) as Array<{ type: string }>).some((e) => e.type === "model_delta")).toBe(false);
  });

  test("a model left out at the soft deadline: what it wrote came before `model_left_out`, nothing after", async () => {
    const t = await app({ AI_SOFT_DEADLINE_MS: "1500" });
    fakes().control.setAll({ latencyMs: 50, durationMs: 300, answer: LONG_ANSWER });
    fakes().control.set("gpt4", { latencyMs: 100, durationMs: 20_000 });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const leftOut = list.findIndex((e) => e.event === "model_left_out" && e.data.model === "GPT-4");
    expect(leftOut).toBeGreaterThan(0);
    const gpt = list.filter((e) => e.event === "model_delta" && e.data.model === "GPT-4");
    expect(gpt.length).toBeGreaterThan(0);
    expect(list.indexOf(gpt.at(-1)!)).toBeLessThan(leftOut);
    expect(list.at(-1)!.event).toBe("final");
  });

  test("a model whose stream is cut mid-text: what it wrote came before `model_failed`, and its half text is not its answer", async () => {
    const t = await app();
    fakes().control.setAll({ latencyMs: 50, durationMs: 600, answer: LONG_ANSWER });
    fakes().control.set("geminiPro", { fail: "cut", failOn: ["answer"] });
    const id = await askReady(t);
    const { events: list } = await readSse(await streamProcess(t, id));
    const failedAt = list.findIndex((e) => e.event === "model_failed" && e.data.model === "Gemini Pro");
    expect(failedAt).toBeGreaterThan(0);
    const gemini = list.filter((e) => e.event === "model_delta" && e.data.model === "Gemini Pro");
    expect(gemini.length).toBeGreaterThan(0);
    expect(list.indexOf(gemini.at(-1)!)).toBeLessThan(failedAt);
    const half = modelTexts(list)["Gemini Pro"]!;
    expect(half.length).toBeGreaterThan(0);
    expect(half.length).toBeLessThan(LONG_ANSWER.length);
    expect(list.at(-1)!.data.available_ais).not.toContain("Gemini Pro");
  });
});
