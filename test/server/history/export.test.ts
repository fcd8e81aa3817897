import { describe, expect, test } from "bun:test";
import { makeUser } from "../../helpers/fixtures.ts";
import { askReady, chatApp, type ChatApp, useFakeProviders } from "../chat/chat.helpers.ts";

const fakes = useFakeProviders();

const SOURCES = ["https://www.insee.fr/fr/statistiques", "https://fr.wikipedia.org/wiki/Paris"];

async function answered(t: ChatApp): Promise<number> {
  fakes().control.set("sonarPro", { citations: SOURCES });
  const id = await askReady(t, "Quelle est la capitale de la France ?");
  const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
  if (res.status !== 200) throw new Error(`process failed: ${res.status}`);
  return id;
}

describe("conversation export", () => {
  test("JSON: questions, answers, the models consulted and the sources, as a download", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const res = await t.call("GET", `/api/unisson/conversation/${id}/export?format=json`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="unisson-conversation-${id}.json"`);
    const doc = res.body;
    expect(doc).toMatchObject({ id, title: "Quelle est la capitale de la France ?" });
    expect(doc.messages.map((m: { role: string }) => m.role)).toEqual(["question", "réponse"]);
    expect(doc.messages[0].content).toBe("Quelle est la capitale de la France ?");
    const answer = doc.messages[1];
    const stored = (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body.messages[1];
    expect(answer.content).toBe(stored.content);
    expect(answer.models_consulted).toEqual(stored.result_data.available_ais);
    expect(answer.models_consulted.length).toBeGreaterThanOrEqual(2);
    expect(answer.synthesis_by).toBe(stored.result_data.primary_ai);
    expect(answer.sources).toEqual(SOURCES);
  });

  test("Markdown (the default): a heading per question and answer, and the models consulted", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const res = await t.call("GET", `/api/unisson/conversation/${id}/export`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=UTF-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="unisson-conversation-${id}.md"`);
    const md: string = res.body;
    expect(md.startsWith("# Quelle est la capitale de la France ?\n")).toBe(true);
    expect(md).toMatch(/\n## Question · .+\n\nQuelle est la capitale de la France \?\n/);
    expect(md).toMatch(/\n## Réponse · /);
    expect(md).toMatch(/\*\*Modèles consultés :\*\* [^\n]+, [^\n]+ \(synthèse : [^)]+\)/);
    for (const url of SOURCES) expect(md).toContain(`- ${url}`);
  });

  test("another user's conversation: 404 like a missing one", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const other = await makeUser(t.db, t.clock.now());
    const res = await t.call("GET", `/api/unisson/conversation/${id}/export?format=md`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Conversation introuvable.");
  });

  test("an unknown format: 400 in French", async () => {
    const t = await chatApp(fakes());
    const id = await answered(t);
    const res = await t.call("GET", `/api/unisson/conversation/${id}/export?format=pdf`, { token: t.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Format d'export invalide (md ou json).");
  });

  test("requires a session", async () => {
    const t = await chatApp(fakes());
    expect((await t.call("GET", "/api/unisson/conversation/1/export")).status).toBe(401);
  });
});
