import { describe, expect, test } from "bun:test";
import { png, textPdf } from "../../helpers/attachment-files.ts";
import { type ChatApp, chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { askWith, uploaded } from "./attachments.helpers.ts";

/**
 * « Modifier » and « Nouvelle réponse » on a question sent with files: the
 * new version keeps them (its run reads them, the page shows them), through
 * HTTP on SQLite and PostgreSQL.
 */
const fakes = useFakeProviders();
const VISION = ["gpt4", "claudeOpus", "claudeHaiku", "geminiPro"] as const;
const ALL = [...VISION, "mistralLarge", "sonarPro"] as const;
const PDF_LINE = "Page 1 : le loyer mensuel est de 850 euros.";

/** A conversation asked with a PDF and a picture, answered; its id and the two files' ids. */
async function askedWithFiles(t: ChatApp) {
  const files = [await uploaded(t, await textPdf(1), "bail.pdf"), await uploaded(t, await png(40, 30), "photo.png")];
  const { chat, answer } = await askWith(t, files, "Quel est le loyer ?");
  expect(answer!.status).toBe(200);
  return { id: chat.body.conversation_id as number, files };
}

async function processed(t: ChatApp, id: number) {
  const res = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: id } });
  expect(res.status).toBe(200);
  return res.body;
}

const conversation = async (t: ChatApp, id: number) => (await t.call("GET", `/api/unisson/conversation/${id}`, { token: t.token })).body;
const questions = (c: { messages: Array<{ sender: string; attachments?: Array<{ id: number }> }> }) => c.messages.filter((m) => m.sender === "user");
const fileIds = (m: { attachments?: Array<{ id: number }> }) => (m.attachments ?? []).map((a) => a.id);

/** The last answer call each model received: its text, and how many pictures came with it (in its SDK's format). */
function received(model: string) {
  const call = fakes()
    .control.callsOf("answer")
    .findLast((c) => c.model === model)!;
  const raw = (call.raw as any[]).at(-1);
  const parts: any[] = Array.isArray(raw.content) ? raw.content : (raw.parts ?? []);
  const pictures = parts.filter((p) => p.type === "image_url" || p.type === "image" || p.inlineData).length;
  return { text: call.messages.at(-1)!.content as string, pictures };
}

describe("asking a question with files again keeps its files", () => {
  test("« Nouvelle réponse »: every model reads the document again, the models that see get the picture again", async () => {
    const t = await chatApp(fakes());
    const { id } = await askedWithFiles(t);
    fakes().control.reset();
    expect((await t.call("POST", `/api/unisson/conversation/${id}/regenerate`, { token: t.token })).status).toBe(200);
    await processed(t, id);
    for (const model of ALL) {
      const got = received(model);
      expect(got.text).toContain("« bail.pdf »");
      expect(got.text).toContain(PDF_LINE);
      expect(got.text).toEndWith("Question de l'utilisateur :\nQuel est le loyer ?");
      expect(got.pictures).toBe((VISION as readonly string[]).includes(model) ? 1 : 0);
    }
  });

  test("« Modifier »: the edited question is asked with the same files", async () => {
    const t = await chatApp(fakes());
    const { id } = await askedWithFiles(t);
    fakes().control.reset();
    const edit = await t.call("POST", `/api/unisson/conversation/${id}/edit`, { token: t.token, json: { message: "Quand le loyer est-il dû ?" } });
    expect(edit.status).toBe(200);
    await processed(t, id);
    const got = received("gpt4");
    expect(got.text).toContain(PDF_LINE);
    expect(got.text).toEndWith("Question de l'utilisateur :\nQuand le loyer est-il dû ?");
    expect(got.pictures).toBe(1);
    expect(received("mistralLarge").text).toContain(PDF_LINE);
  });

  test("the conversation shows the files on the version shown, once, whichever version that is", async () => {
    const t = await chatApp(fakes());
    const { id, files } = await askedWithFiles(t);
    const edit = await t.call("POST", `/api/unisson/conversation/${id}/edit`, { token: t.token, json: { message: "Quand le loyer est-il dû ?" } });
    // The edit's answer already shows the new version with its files, before its run.
    expect(questions(edit.body).map(fileIds)).toEqual([files]);
    await processed(t, id);
    const second = await conversation(t, id);
    expect(questions(second).map(fileIds)).toEqual([files]);
    const group = second.versions[0].group;
    expect((await t.call("PUT", `/api/unisson/conversation/${id}/versions/${group}`, { token: t.token, json: { version: 1 } })).status).toBe(200);
    expect(questions(await conversation(t, id)).map(fileIds)).toEqual([files]);
  });

  test("the conversation's export lists the files under the version shown", async () => {
    const t = await chatApp(fakes());
    const { id } = await askedWithFiles(t);
    expect((await t.call("POST", `/api/unisson/conversation/${id}/regenerate`, { token: t.token })).status).toBe(200);
    await processed(t, id);
    const res = await t.app.request(`/api/unisson/conversation/${id}/export?format=json`, { headers: { authorization: `Bearer ${t.token}` } });
    expect(res.status).toBe(200);
    const exported = (await res.json()) as { messages: Array<{ role: string; attachments?: Array<{ name: string }> }> };
    const asked = exported.messages.filter((m) => m.role === "question");
    expect(asked.map((m) => (m.attachments ?? []).map((a) => a.name))).toEqual([["bail.pdf", "photo.png"]]);
  });
});
