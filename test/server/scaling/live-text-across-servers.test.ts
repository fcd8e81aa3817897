import { describe, expect, test } from "bun:test";
import { systemClock } from "../../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { readSse, type Sse } from "../../helpers/sse.ts";
import { LONG_ANSWER, modelTexts } from "../../helpers/model-texts.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { useFakeProviders } from "../chat/chat.helpers.ts";
import { textPayloads } from "../../../src/db/run-text-relay.ts";

/**
 * Each model writing, live, across servers on one PostgreSQL database: the
 * text pieces of a run carried out by server A reach a client of server B
 * while the models write (NOTIFY on the text channel), and a client that
 * joins B mid-run gets the texts so far (the row's checkpoint) then the rest.
 */
const fakes = useFakeProviders();

type Server = TestApp & { token: string };

async function twoServers(): Promise<[Server, Server]> {
  const env = { ...fakes().env, AI_TIMEOUT_MS: "15000" };
  const a = await createTestApp({ env, deps: { clock: systemClock } });
  const b = await createTestApp({ env: { ...env, DATABASE_URL: a.config.databaseUrl! }, deps: { clock: systemClock } });
  const { token } = await makeUser(a.db, new Date(), { planQueries: 5 });
  return [
    { ...a, token },
    { ...b, token },
  ];
}

async function askAndStart(a: Server): Promise<{ id: number; onA: Promise<{ events: Sse[] }> }> {
  const chat = await a.call("POST", "/api/unisson/chat", { token: a.token, json: { message: "Quelle est la capitale de la France ?" } });
  const id = chat.body.conversation_id as number;
  const res = await a.app.request("/api/unisson/process", {
    method: "POST",
    headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ conversation_id: id }),
  });
  const onA = readSse(res);
  while (fakes().control.callsOf("answer").length === 0) await Bun.sleep(5);
  return { id, onA };
}

const eventsOn = async (t: Server, id: number) =>
  await t.app.request(`/api/unisson/conversation/${id}/events`, { headers: { authorization: `Bearer ${t.token}` } });

describe.skipIf(!onPostgres)("each model writing, live, across servers", () => {
  test("server B's client sees each model's text pieces while A's models write, before each model's answer is announced", async () => {
    const [a, b] = await twoServers();
    fakes().control.setAll({ latencyMs: 300, durationMs: 3000, answer: LONG_ANSWER });
    const { id, onA } = await askAndStart(a);
    const { events: onB } = await readSse(await eventsOn(b, id));
    await onA;
    expect(onB.at(-1)!.event).toBe("final");
    for (const name of onB[0]!.data.models as string[]) {
      const answeredAt = onB.findIndex((e) => e.event === "model_answered" && e.data.model === name);
      const pieces = onB.filter((e) => e.event === "model_delta" && e.data.model === name);
      // Relayed live (no id), not only read from the row's checkpoints (with an id, at most one a second): several
      // for each model before its answer is announced.
      const relayed = pieces.filter((e) => e.id === null && onB.indexOf(e) < answeredAt);
      expect(relayed.length).toBeGreaterThan(3);
      expect(onB.indexOf(pieces[0]!)).toBeLessThan(answeredAt);
    }
    const written = modelTexts(onB);
    for (const name of onB[0]!.data.models as string[]) expect(written[name]).toBe(LONG_ANSWER);
  }, 60_000);

  test("a client that joins B mid-run gets the texts so far, then the rest as it is written", async () => {
    const [a, b] = await twoServers();
    fakes().control.setAll({ latencyMs: 100, durationMs: 4000, answer: LONG_ANSWER });
    const { id, onA } = await askAndStart(a);
    await Bun.sleep(2000);
    const { events: onB } = await readSse(await eventsOn(b, id));
    await onA;
    const firstText = onB.find((e) => e.event === "model_delta")!;
    expect(firstText.data.from).toBe(0);
    expect(firstText.data.text.length).toBeGreaterThan(100);
    const written = modelTexts(onB);
    for (const name of onB[0]!.data.models as string[]) expect(written[name]).toBe(LONG_ANSWER);
  }, 60_000);
});

describe("the text relay's NOTIFY payloads", () => {
  test("a burst of text far over PostgreSQL's 8000-byte limit is cut into payloads under it that add up to the text", () => {
    const text = 'Réponse très détaillée — 🇫🇷 « guillemets » et "échappements"\n'.repeat(600);
    const pieces = [
      { id: 7, type: "model_delta" as const, data: { model: "GPT-4", from: 120, text } },
      { id: 8, type: "model_delta" as const, data: { model: "Gemini Pro", from: 0, text: "Bonjour" } },
    ];
    const payloads = textPayloads(42, pieces);
    expect(payloads.length).toBeGreaterThan(5);
    for (const p of payloads) expect(Buffer.byteLength(p, "utf8")).toBeLessThan(8000);
    const parts = payloads.flatMap((p) => (JSON.parse(p) as { r: number; p: Array<[number, string, number, string]> }).p);
    let gpt = "x".repeat(120);
    for (const [, model, from, piece] of parts) if (model === "GPT-4") gpt = gpt.slice(0, from) + piece;
    expect(gpt).toBe("x".repeat(120) + text);
    expect(parts.at(-1)).toEqual([8, "Gemini Pro", 0, "Bonjour"]);
  });
});
