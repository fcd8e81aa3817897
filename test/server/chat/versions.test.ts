import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, type ChatApp, chatApp, remaining, runAskedModels, useFakeProviders } from "./chat.helpers.ts";

/**
 * Edit and ask again, « Nouvelle réponse », and the versions « 1/2 » « 2/2 »
 * through HTTP, on SQLite and PostgreSQL.
 */
const fakes = useFakeProviders();
const PROCESS = "/api/unisson/process";
const QUESTION = "Quelle est la capitale de la France ?";
const EDITED = "Quelle est la capitale de l'Italie ?";

async function answered(t: ChatApp, message = QUESTION): Promise<number> {
  const id = await askReady(t, message);
  await processed(t, id);
  return id;
}

async function processed(t: ChatApp, id: number) {
  const res = await t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
  if (res.status !== 200) throw new Error(`process: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const edit = (t: ChatApp, id: number, message: unknown, token = t.token) =>
  t.call("POST", `/api/unisson/conversation/${id}/edit`, { token, json: { message } });
const regenerate = (t: ChatApp, id: number, token = t.token) => t.call("POST", `/api/unisson/conversation/${id}/regenerate`, { token });
const conversation = async (t: ChatApp, id: number) => (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body;
const show = (t: ChatApp, id: number, group: number | string, version: unknown) =>
  t.call("PUT", `/api/unisson/conversation/${id}/versions/${group}`, { token: t.token, json: { version } });
const contents = (c: { messages: Array<{ sender: string; content: string }> }) => c.messages.map((m) => `${m.sender}: ${m.content.split("\n")[0]}`);

/** A conversation whose question was edited and answered again: its id and the group of the two versions. */
async function editedOnce(t: ChatApp) {
  fakes().control.set("gpt4", { answer: "Réponse de GPT-4 : Paris." });
  const id = await answered(t);
  fakes().control.set("gpt4", { answer: "Réponse de GPT-4 : Rome." });
  expect((await edit(t, id, EDITED)).status).toBe(200);
  await processed(t, id);
  const c = await conversation(t, id);
  return { id, group: c.versions[0].group as number, c };
}

describe("edit and ask again", () => {
  test("the edited question is asked in a new run: the models get the edited text", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    fakes().control.reset();
    const res = await edit(t, id, EDITED);
    expect(res.status).toBe(200);
    expect(res.body.requires_final_processing).toBe(true);
    await processed(t, id);
    expect(fakes().control.callsOf("answer")[0]!.messages.at(-1)!.content).toBe(EDITED);
  });

  test("it is charged as a request", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const before = await remaining(t);
    await edit(t, id, EDITED);
    await processed(t, id);
    expect((await remaining(t)).plan).toBe(before.plan - 1);
  });

  test("the conversation shows the new version, marked 2/2", async () => {
    const t = await chatApp(fakes());
    const { c } = await editedOnce(t);
    expect(c.messages.map((m: { sender: string }) => m.sender)).toEqual(["user", "assistant"]);
    expect(c.messages[0].content).toBe(EDITED);
    expect(c.versions).toEqual([{ message_id: c.messages[0].id, group: expect.any(Number), version: 2, count: 2 }]);
  });

  test("the earlier question and its answer are kept: switching back shows them (1/2)", async () => {
    const t = await chatApp(fakes());
    const { id, group } = await editedOnce(t);
    const res = await show(t, id, group, 1);
    expect(res.status).toBe(200);
    expect(res.body.messages[0].content).toBe(QUESTION);
    expect(res.body.messages).toHaveLength(2);
    expect(res.body.versions[0]).toMatchObject({ version: 1, count: 2 });
    expect(await conversation(t, id)).toEqual(res.body);
  });

  test("switching to 2/2 again shows the edited question with its own answer", async () => {
    const t = await chatApp(fakes());
    const { id, group, c } = await editedOnce(t);
    await show(t, id, group, 1);
    const back = await show(t, id, group, 2);
    expect(contents(back.body)).toEqual(contents(c));
  });

  test("the model context of the next question is the version shown", async () => {
    const t = await chatApp(fakes());
    const { id, group } = await editedOnce(t);
    await show(t, id, group, 1);
    fakes().control.reset();
    await t.call("POST", "/api/unisson/chat", { token: t.token, json: { conversation_id: id, message: "Et sa population ?" } });
    await processed(t, id);
    const sent = fakes()
      .control.callsOf("answer")[0]!
      .messages.map((m) => m.content);
    expect(sent).toContain(QUESTION);
    expect(sent).not.toContain(EDITED);
  });

  test("an empty edited question: 400 in French, nothing changed", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const res = await edit(t, id, "   ");
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le message ne peut pas être vide.");
    expect((await conversation(t, id)).versions).toEqual([]);
  });

  test("an edited question the moderation refuses: 400 in French, nothing changed, nothing charged", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const before = await remaining(t);
    fakes().control.moderation = { flagged: true, categories: ["violence"] };
    const res = await edit(t, id, "Une question refusée");
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("enfreint nos règles d'utilisation");
    expect((await conversation(t, id)).messages[0].content).toBe(QUESTION);
    expect(await remaining(t)).toEqual(before);
  });

  test("during a run: 409 in French", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    fakes().control.setAll({ latencyMs: 1_000 });
    const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    await runAskedModels(fakes());
    const res = await edit(t, id, EDITED);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("Une analyse est en cours");
    await pending;
  });

  test("another user's conversation: 404", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    expect((await edit(t, id, EDITED, other.token)).status).toBe(404);
    expect((await regenerate(t, id, other.token)).status).toBe(404);
  });
});

describe("« Nouvelle réponse »", () => {
  test("a new run on the same question, charged as a request", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const before = await remaining(t);
    fakes().control.reset();
    const res = await regenerate(t, id);
    expect(res.status).toBe(200);
    await processed(t, id);
    expect(fakes().control.callsOf("answer")[0]!.messages.at(-1)!.content).toBe(QUESTION);
    expect((await remaining(t)).plan).toBe(before.plan - 1);
  });

  test("both answers are kept as versions 1/2 and 2/2", async () => {
    const t = await chatApp(fakes());
    fakes().control.set("gpt4", { answer: "Première : Paris." });
    const id = await answered(t);
    const first = (await conversation(t, id)).messages[1].content;
    fakes().control.synthesis = () => "## Réponse consolidée\nSeconde réponse.\n## Points de consensus\nTout.\n## Divergences\nAucune.";
    await regenerate(t, id);
    await processed(t, id);
    const c = await conversation(t, id);
    expect(c.messages[1].content).toContain("Seconde réponse.");
    expect(c.versions[0]).toMatchObject({ version: 2, count: 2 });
    const back = await show(t, id, c.versions[0].group, 1);
    expect(back.body.messages[1].content).toBe(first);
  });
});

describe("« Nouvelle réponse » after « Arrêter »", () => {
  test("the stopped answer becomes version 1/2, the new run answers the same question", async () => {
    const t = await chatApp(fakes());
    const id = await askReady(t);
    fakes().control.setAll({ latencyMs: 20_000 });
    const pending = t.call("POST", PROCESS, { token: t.token, json: { conversation_id: id } });
    await runAskedModels(fakes());
    expect((await t.call("POST", `/api/unisson/conversation/${id}/stop`, { token: t.token })).body.status).toBe("stopped");
    await pending;
    fakes().control.reset();
    expect((await regenerate(t, id)).status).toBe(200);
    await processed(t, id);
    const c = await conversation(t, id);
    expect(c.messages.map((m: { message_type: string | null }) => m.message_type)).toEqual([null, "final_response"]);
    const back = await show(t, id, c.versions[0].group, 1);
    expect(back.body.messages.map((m: { message_type: string | null }) => m.message_type)).toEqual([null, "stopped_response"]);
  });
});

describe("versions in the history, export and shared copy", () => {
  test("the history counts versions as one conversation, with the shown messages and question", async () => {
    const t = await chatApp(fakes());
    await editedOnce(t);
    const list = (await t.call("GET", "/api/unisson/history", { token: t.token })).body.conversations;
    expect(list).toHaveLength(1);
    expect(list[0].message_count).toBe(2);
    expect(list[0].first_message).toBe(EDITED);
  });

  test("the export holds the version shown only", async () => {
    const t = await chatApp(fakes());
    const { id, group } = await editedOnce(t);
    await show(t, id, group, 1);
    const res = await t.app.request(`/api/unisson/conversation/${id}/export?format=json`, { headers: { authorization: `Bearer ${t.token}` } });
    const doc = (await res.json()) as { messages: Array<{ role: string; content: string }> };
    expect(doc.messages).toHaveLength(2);
    expect(doc.messages[0]!.content).toBe(QUESTION);
  });

  test("a shared copy holds the version shown only", async () => {
    const t = await chatApp(fakes());
    const { id } = await editedOnce(t);
    const share = await t.call("POST", "/api/shares", { token: t.token, json: { conversation_id: id } });
    expect(share.status).toBe(201);
    const token = new URL(share.body.url).pathname.slice("/partage/".length);
    const copy = (await t.call("GET", `/api/shared/${token}`)).body;
    expect(copy.turns.map((turn: { question: string }) => turn.question)).toEqual([EDITED]);
  });

  test("an unknown version: 404 in French; a bad version number: 400 in French", async () => {
    const t = await chatApp(fakes());
    const { id, group } = await editedOnce(t);
    const missing = await show(t, id, group, 3);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("Version introuvable.");
    const bad = await show(t, id, group, "deux");
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Le numéro de version doit être un entier positif.");
  });
});
