import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { processingRuns } from "../../../src/db/schema/index.ts";
import { type ChatApp, chatApp, remaining, runAskedModels, useFakeProviders } from "./chat.helpers.ts";

/**
 * « Arrêter » from the moment the question is sent (issue 43): POST /chat
 * with start_run has started the run while the clarifier decides; the page
 * names its ask (`ask_id`) and stops it with POST /chat/stop before /chat answers.
 */
const fakes = useFakeProviders();
const CHAT = "/api/unisson/chat";
const QUESTION = "Quel est le taux d'imposition ?";
const ASK_ID = "ask-0123456789";

const askStarting = (t: ChatApp) => t.call("POST", CHAT, { token: t.token, json: { message: QUESTION, start_run: true, ask_id: ASK_ID } });
const stopAsk = (t: ChatApp, askId: unknown = ASK_ID) => t.call("POST", `${CHAT}/stop`, { token: t.token, json: { ask_id: askId } });

/** The clarifier (Claude 3 Haiku) takes 2.5 s to decide (its own time limit is 5 s); the council's models would take 20 s to answer. */
const CLARIFY_MS = 2_500;
function slowClarifier() {
  fakes().control.setAll({ latencyMs: 20_000 }).set("claudeHaiku", { latencyMs: CLARIFY_MS });
}

describe("« Arrêter » while the clarifier decides", () => {
  test("the run is dropped, nothing is charged, and the turn ends stopped", async () => {
    const t = await chatApp(fakes());
    slowClarifier();
    const asked = askStarting(t);
    await runAskedModels(fakes());
    const stop = await stopAsk(t);
    expect(stop.status).toBe(200);
    const res = await asked;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requires_final_processing: false, run_started: false, needs_clarification: false });
    expect(res.body.messages.map((m: { message_type: string | null }) => m.message_type)).toEqual([null, "stopped_response"]);
    expect(await remaining(t)).toEqual({ plan: 5, extra: 0 });
    expect(await t.db.select().from(processingRuns).where(eq(processingRuns.conversationId, res.body.conversation_id))).toEqual([]);
  });

  test("/chat answers at the stop, before the clarifier's verdict, and the models' calls are aborted upstream", async () => {
    const t = await chatApp(fakes());
    slowClarifier();
    const asked = askStarting(t).then(() => performance.now());
    // All six members asked before the stop: one not yet asked is never called, so it cannot be aborted (2 of 5 once, loaded).
    while (fakes().control.callsOf("answer").length < 6) await Bun.sleep(5);
    while (fakes().control.callsOf("clarification").length === 0) await Bun.sleep(5);
    await stopAsk(t);
    const answeredAt = await asked;
    expect(answeredAt).toBeLessThan(fakes().control.callsOf("clarification")[0]!.at + CLARIFY_MS);
    for (let i = 0; i < 100 && fakes().control.abortedCalls("answer").length < 5; i++) await Bun.sleep(20);
    expect(fakes().control.abortedCalls("answer").length).toBeGreaterThanOrEqual(5);
  });

  test("the next message after a stopped ask is a new question, not a precision of the stopped one", async () => {
    const t = await chatApp(fakes());
    slowClarifier();
    const asked = askStarting(t);
    await runAskedModels(fakes());
    await stopAsk(t);
    const id = (await asked).body.conversation_id;
    fakes().control.reset();
    const next = await t.call("POST", CHAT, { token: t.token, json: { conversation_id: id, message: "Quelle est la capitale de la France ?" } });
    expect(next.status).toBe(200);
    expect(fakes().control.callsOf("clarification").at(-1)!.messages.at(-1)!.content).not.toContain("taux d'imposition");
  });

  test("a stop for an ask that is over (or never was): 409 with a French message", async () => {
    const t = await chatApp(fakes());
    const res = await stopAsk(t);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("Cette question n'est plus en cours d'envoi : arrêtez son analyse depuis la conversation.");
  });

  test("an ask_id that is not an identifier: 400 with a French message", async () => {
    const t = await chatApp(fakes());
    const res = await stopAsk(t, "x");
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("« ask_id » doit être un identifiant");
  });
});
