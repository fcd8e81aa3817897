import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, chatApp, useFakeProviders } from "./chat.helpers.ts";

const fakes = useFakeProviders();

describe("history and conversations", () => {
  test("GET /history lists the caller's conversations newest first, with the spec's fields", async () => {
    const t = await chatApp(fakes());
    const first = await askReady(t, "Quelle est la capitale de la France ?");
    t.clock.advance(60_000);
    const second = await askReady(t, "Combien de régions compte la France métropolitaine aujourd'hui, et depuis quand ?");
    const res = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.conversations.map((c: { id: number }) => c.id)).toEqual([second, first]);
    expect(res.body.conversations[0]).toEqual({
      id: second,
      title: "Combien de régions compte la France métropolitaine…",
      first_message: "Combien de régions compte la France métropolitaine aujourd'hui, et depuis quand ?",
      message_count: 1,
      source: "web",
      shared: false,
      attachment_count: 0,
      updated_at: t.clock.now().toISOString(),
    });
  });

  test("GET /history carries only the first 300 characters of a long first message", async () => {
    const t = await chatApp(fakes());
    const long = `${"Une question très détaillée ".repeat(40)}?`;
    await askReady(t, long);
    const res = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(res.body.conversations[0].first_message).toBe(long.slice(0, 300));
  });

  test("a processed conversation counts its messages and moves to the top", async () => {
    const t = await chatApp(fakes());
    const first = await askReady(t, "Quelle est la capitale de la France ?");
    t.clock.advance(60_000);
    await askReady(t, "Quelle est la capitale de l'Italie ?");
    t.clock.advance(60_000);
    await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: first } });
    const res = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(res.body.conversations[0]).toMatchObject({ id: first, message_count: 2 });
  });

  test("GET /conversation/{id} answers its messages in order", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
    const res = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { sender: string }) => m.sender)).toEqual(["user", "assistant"]);
    expect(Object.keys(res.body.messages[1]).sort()).toEqual(["content", "id", "message_type", "result_data", "sender", "timestamp"]);
  });

  test("DELETE /conversation/{id} removes it from history", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const del = await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(del.status).toBe(200);
    const res = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(res.body.conversations).toEqual([]);
    expect((await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).status).toBe(404);
  });

  test("a missing conversation: 404 in French", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("GET", "/api/unisson/conversation/999999", { token: t.token });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Conversation introuvable.");
  });

  test("a non-numeric id: 400 in French", async () => {
    const t = await chatApp(fakes());
    const res = await t.call("GET", "/api/unisson/conversation/abc", { token: t.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Identifiant de conversation invalide.");
  });

  test("another user's conversation answers exactly like a missing one, on every endpoint", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    const other = await makeUser(t.db, t.clock.now());
    const missing = await t.call("GET", "/api/unisson/conversation/999999", { token: other.token });
    const calls = [
      await t.call("GET", `/api/unisson/conversation/${id}`, { token: other.token }),
      await t.call("DELETE", `/api/unisson/conversation/${id}`, { token: other.token }),
      await t.call("POST", "/api/unisson/chat", { token: other.token, json: { conversation_id: id, message: "Et pour l'Italie, quelle est la capitale ?" } }),
      await t.call("POST", "/api/unisson/process", { token: other.token, json: { conversation_id: id } }),
    ];
    for (const res of calls) expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: missing.body });
    const own = await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token });
    expect(own.body.messages).toHaveLength(1);
  });

  test("another user's history never shows my conversations", async () => {
    const t = await chatApp(fakes());
    await askReady(t);
    const other = await makeUser(t.db, t.clock.now());
    const res = await t.call("GET", "/api/unisson/history", { token: other.token });
    expect(res.body.conversations).toEqual([]);
  });

  test("history requires a session", async () => {
    const t = await chatApp(fakes());
    expect((await t.call("GET", "/api/unisson/history")).status).toBe(401);
  });
});
