import { describe, expect, test } from "bun:test";
import { DAY, MINUTE } from "../../../src/lib/clock.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";

const fakes = useFakeProviders();
const CHAT = "/api/unisson/chat";
const SPAM = "Quelle est la capitale de la France ?";

describe("spend limits per user on the model endpoints", () => {
  test("/chat spam past the 10-minute limit answers 429 before any upstream call", async () => {
    const t = await chatApp(fakes(), { env: { CHAT_LIMIT_PER_10_MIN: "3" }, user: { subscriptionType: "pro", planQueries: 30 } });
    fakes().control.clarify(["Précisez ?"]);
    for (let i = 0; i < 3; i++) expect((await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).status).toBe(200);
    const upstream = fakes().control.callsOf("clarification").length;
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } });
    expect(res.status).toBe(429);
    expect(res.body.detail).toBe("Vous avez envoyé beaucoup de messages en peu de temps. Veuillez patienter avant d'en envoyer d'autres.");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(fakes().control.callsOf("clarification")).toHaveLength(upstream);
    t.clock.advance(10 * MINUTE);
    expect((await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).status).toBe(200);
  });

  test("/process counts in the same windows: past the limit it answers 429 and asks no model", async () => {
    const t = await chatApp(fakes(), { env: { CHAT_LIMIT_PER_10_MIN: "1" }, user: { subscriptionType: "pro", planQueries: 30 } });
    const id = (await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).body.conversation_id;
    const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    expect(res.status).toBe(429);
    expect(fakes().control.callsOf("answer")).toHaveLength(0);
  });

  test("a daily limit holds across the 10-minute windows", async () => {
    const t = await chatApp(fakes(), { env: { CHAT_LIMIT_PER_10_MIN: "5", CHAT_LIMIT_PER_DAY: "2" }, user: { subscriptionType: "pro", planQueries: 30 } });
    for (let i = 0; i < 2; i++) {
      expect((await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).status).toBe(200);
      t.clock.advance(10 * MINUTE);
    }
    expect((await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).status).toBe(429);
    t.clock.advance(DAY);
    expect((await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).status).toBe(200);
  });

  test("a trial user's messages (moderation and clarification, never charged) meet a daily cap", async () => {
    const t = await chatApp(fakes(), { env: { TRIAL_CHAT_LIMIT_PER_DAY: "2" } });
    fakes().control.clarify(["Précisez ?"]);
    for (let i = 0; i < 2; i++) expect((await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } })).status).toBe(200);
    const res = await t.call("POST", CHAT, { token: t.token, json: { message: SPAM } });
    expect(res.status).toBe(429);
    expect(res.body.detail).toBe("Vous avez atteint la limite quotidienne de messages de l'essai gratuit. Revenez demain ou choisissez un forfait.");
    expect(fakes().control.callsOf("clarification")).toHaveLength(2);
  });
});
