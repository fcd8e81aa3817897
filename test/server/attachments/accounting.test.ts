import { describe, expect, test } from "bun:test";
import { bigFile, docx, png } from "../../helpers/attachment-files.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { askWith, uploaded } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

describe("attachments in the data export and the usage figures", () => {
  test("the export holds every attachment as base64 with its extracted text, tied to its message", async () => {
    const t = await chatApp(fakes());
    const sent = await uploaded(t, await docx(["Clause 7 : résiliation."]), "contrat.docx");
    const { chat } = await askWith(t, [sent]);
    const bytes = await png(30, 20);
    const draft = await uploaded(t, bytes, "brouillon.png");
    const res = await t.call("GET", "/api/auth/export", { token: t.token });
    expect(res.status).toBe(200);
    const files = res.body.attachments as Array<Record<string, unknown>>;
    expect(files.map((f) => f.id)).toEqual([sent, draft]);
    expect(files[0]).toMatchObject({
      name: "contrat.docx",
      kind: "docx",
      conversation_id: chat.body.conversation_id,
      extracted_text: "Clause 7 : résiliation.",
    });
    expect(files[0]!.message_id).toBe(chat.body.messages[0].id);
    expect(new Uint8Array(Buffer.from(files[1]!.data_base64 as string, "base64"))).toEqual(bytes);
    expect(files[1]!.message_id).toBeNull();
  });

  test("another user's attachments are not in my export", async () => {
    const t = await chatApp(fakes());
    await uploaded(t, await png(10, 10), "moi.png");
    const other = await makeUser(t.db, t.clock.now(), { email: "autre@example.fr" });
    const res = await t.call("GET", "/api/auth/export", { token: other.token });
    expect(res.body.attachments).toEqual([]);
  });

  test("the admin's usage counts files and megabytes per user", async () => {
    const t = await chatApp(fakes());
    await uploaded(t, bigFile(2), "gros.txt");
    await uploaded(t, new TextEncoder().encode("petit"), "petit.txt");
    const admin = await makeUser(t.db, t.clock.now(), { email: "admin@example.fr", isAdmin: true });
    const res = await t.call("GET", "/api/admin/usage", { token: admin.token });
    expect(res.body.attachments).toEqual({ files: 2, megabytes: 2, users: [{ user_id: t.user.id, email: t.user.email, files: 2, megabytes: 2 }] });
  });
});

describe("attachments in a conversation's export", () => {
  test("the question lists its files, in Markdown and in JSON", async () => {
    const t = await chatApp(fakes());
    const id = await uploaded(t, await docx(["Clause 7."]), "contrat.docx");
    const { chat } = await askWith(t, [id], "Que dit la clause 7 ?");
    const path = `/api/unisson/conversation/${chat.body.conversation_id}/export`;
    const md = await t.call("GET", `${path}?format=md`, { token: t.token });
    expect(md.body).toContain("**Pièces jointes :** contrat.docx");
    const json = await t.call("GET", `${path}?format=json`, { token: t.token });
    expect(json.body.messages[0].attachments).toEqual([{ name: "contrat.docx", kind: "docx", size: expect.any(Number) }]);
    expect(json.body.messages[1].attachments).toBeUndefined();
  });
});
