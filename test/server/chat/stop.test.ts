import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { readSse } from "../../helpers/sse.ts";
import { askReady, type ChatApp, chatApp, remaining, runAskedModels, useFakeProviders } from "./chat.helpers.ts";

/**
 * « Arrêter » through HTTP (POST /api/unisson/conversation/{id}/stop), on
 * SQLite and PostgreSQL: the fakes see their requests aborted, the run ends
 * « arrêtée par l'utilisateur », refunded, with what the models wrote kept
 * and labelled, and the conversation takes the next message at once.
 */
const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";
const eventsOf = (t: ChatApp, id: number) => t.app.request(`/api/unisson/conversation/${id}/events`, { headers: { authorization: `Bearer ${t.token}` } });
/** A long answer: the fake writes it in a dozen pieces, so its first piece is a part of it. */
const PARTLY_WRITTEN = Array.from({ length: 24 }, (_, i) => `Mot${i + 1}`).join(" ");
const stop = (t: ChatApp, id: number, token = t.token) => t.call("POST", `/api/unisson/conversation/${id}/stop`, { token });

/** A question whose run is under way, its models slow (they answer after 20 s unless stopped). */
async function running(t: ChatApp, slow = 20_000) {
  const id = await askReady(t);
  // Slow answers only: the clarification pre-pass of askReady is not held.
  fakes().control.setAll({ latencyMs: slow });
  const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
  await runAskedModels(fakes());
  return { id, pending };
}

async function abortedAnswers(expected: number, withinMs: number): Promise<number> {
  const end = performance.now() + withinMs;
  while (fakes().control.abortedCalls("answer").length < expected && performance.now() < end) await Bun.sleep(10);
  return fakes().control.abortedCalls("answer").length;
}

describe("stopping a run (« Arrêter »)", () => {
  test("the fake providers see every answer request aborted within a second", async () => {
    const t = await chatApp(fakes());
    const { id, pending } = await running(t);
    while (fakes().control.callsOf("answer").length < 6) await Bun.sleep(5);
    const asked = performance.now();
    const res = await stop(t, id);
    expect(res.status).toBe(200);
    expect(await abortedAnswers(6, 1_000)).toBe(6);
    expect(performance.now() - asked).toBeLessThan(5_000);
    await pending;
  });

  test("the run ends « arrêtée par l'utilisateur »: the JSON caller gets 409 RUN_STOPPED in French", async () => {
    const t = await chatApp(fakes());
    const { id, pending } = await running(t);
    expect((await stop(t, id)).body).toEqual({ conversation_id: id, status: "stopped", refunded: true });
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Réponse arrêtée par l'utilisateur. Votre requête n'a pas été décomptée.");
  });

  test("the events of the run end with a failed event RUN_STOPPED, refunded, carrying the stopped message", async () => {
    const t = await chatApp(fakes());
    const { id, pending } = await running(t);
    await stop(t, id);
    await pending;
    const last = (await readSse(await eventsOf(t, id))).events.at(-1)!;
    expect(last.event).toBe("failed");
    expect(last.data.code).toBe("RUN_STOPPED");
    expect(last.data.refunded).toBe(true);
    expect(last.data.message.message_type).toBe("stopped_response");
  });

  test("nothing is charged: the request is given back", async () => {
    const t = await chatApp(fakes());
    const before = await remaining(t);
    const { id, pending } = await running(t);
    expect((await remaining(t)).plan).toBe(before.plan - 1);
    await stop(t, id);
    await pending;
    expect(await remaining(t)).toEqual(before);
  });

  test("the conversation accepts the next message at once, as a new question", async () => {
    const t = await chatApp(fakes());
    const { id, pending } = await running(t);
    await stop(t, id);
    await pending;
    fakes().control.reset();
    const next = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { conversation_id: id, message: "Et celle de l'Italie ?" } });
    expect(next.status).toBe(200);
    expect(next.body.requires_final_processing).toBe(true);
    const answered = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    expect(answered.status).toBe(200);
    // A new question, not a precision of the stopped one.
    expect(fakes().control.callsOf("answer")[0]!.messages.at(-1)!.content).toBe("Et celle de l'Italie ?");
  });

  test("what the models wrote stays visible, labelled as stopped: finished answers and the synthesis so far", async () => {
    const t = await chatApp(fakes());
    const never = new Promise(() => {});
    fakes().control.setAll({ synthesisPause: { afterPieces: 2, until: never } });
    const id = await askReady(t);
    const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    while (fakes().control.callsOf("synthesis").length === 0) await Bun.sleep(5);
    await Bun.sleep(200);
    await stop(t, id);
    await pending;
    const messages = (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.messages;
    const stopped = messages.at(-1);
    expect(stopped.message_type).toBe("stopped_response");
    expect(stopped.content.startsWith("## Réponse consolidée")).toBe(true);
    expect(stopped.result_data.stopped).toBe(true);
    expect(stopped.result_data.answers).toHaveLength(6);
    // Every model had finished: none is shown again as stopped while writing.
    expect(stopped.result_data.partial_answers).toEqual([]);
    expect(fakes().control.abortedCalls("synthesis")).toHaveLength(1);
  });

  test("a model stopped while writing: its words so far are in the stopped message and its failed event, as partial", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    // GPT-4 writes its first words then goes silent; the others have not written yet.
    fakes().control.setAll({ latencyMs: 20_000 }).set("gpt4", { latencyMs: 0, fail: "stall", answer: PARTLY_WRITTEN });
    const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    await runAskedModels(fakes());
    const written = await readSse(await eventsOf(t, id), { stopAfter: (e) => e.event === "model_delta" && e.data.model === "GPT-4" });
    const words = written.events.at(-1)!.data.text as string;
    expect(words.length).toBeGreaterThan(0);
    expect(PARTLY_WRITTEN.startsWith(words) && words !== PARTLY_WRITTEN).toBe(true);
    await stop(t, id);
    await pending;
    const stopped = (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.messages.at(-1);
    expect(stopped.message_type).toBe("stopped_response");
    expect(stopped.result_data.partial_answers).toEqual([{ name: "GPT-4", text: words }]);
    const failed = (await readSse(await eventsOf(t, id))).events.at(-1)!;
    expect(failed.data.partial_answers).toEqual([{ name: "GPT-4", text: words }]);
    expect(failed.data.message.result_data.partial_answers).toEqual([{ name: "GPT-4", text: words }]);
  });

  test("a run whose answer is stored is not undone: nothing to stop (409 in French), the answer charged", async () => {
    const t = await chatApp(fakes());
    const before = await remaining(t);
    const id = await askReady(t);
    expect((await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } })).status).toBe(200);
    const res = await stop(t, id);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Aucune analyse n'est en cours dans cette conversation.");
    expect((await remaining(t)).plan).toBe(before.plan - 1);
  });

  test("another user's conversation: 404, and its run goes on", async () => {
    const t = await chatApp(fakes());
    const { id, pending } = await running(t, 300);
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const res = await stop(t, id, other.token);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Conversation introuvable.");
    expect((await pending).status).toBe(200);
  });

  test("a bad conversation id: 400 in French; without a session: 401", async () => {
    const t = await chatApp(fakes());
    const bad = await t.call("POST", "/api/unisson/conversation/abc/stop", { token: t.token });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Identifiant de conversation invalide.");
    expect((await t.call("POST", "/api/unisson/conversation/1/stop")).status).toBe(401);
  });
});
