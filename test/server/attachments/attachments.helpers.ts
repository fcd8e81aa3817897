import { eq } from "drizzle-orm";
import { attachments } from "../../../src/db/schema/index.ts";
import { uploadForm } from "../../helpers/attachment-files.ts";
import type { ChatApp } from "../chat/chat.helpers.ts";

type App = Pick<ChatApp, "app" | "token">;

/** POST /api/attachments with one file, as the page sends it; the status and the JSON answer. */
export async function upload(t: App, bytes: Uint8Array, name: string, token = t.token) {
  const res = await t.app.request("/api/attachments", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: uploadForm(bytes, name) });
  return { status: res.status, body: (await res.json()) as any };
}

/** Uploads, expecting 201; the new attachment's id. */
export async function uploaded(t: App, bytes: Uint8Array, name: string): Promise<number> {
  const res = await upload(t, bytes, name);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** The stored row, bytes included. */
export async function storedRow(t: Pick<ChatApp, "db">, id: number) {
  const [row] = await t.db.select().from(attachments).where(eq(attachments.id, id));
  return row;
}

/** Asks a question with these attachments and waits for the consolidated answer. */
export async function askWith(t: ChatApp, ids: number[], message = "Que dit ce document ?") {
  const chat = await t.call("POST", "/api/unisson/chat", { token: t.token, json: { message, attachments: ids } });
  if (chat.status !== 200) return { chat, answer: null };
  const answer = await t.call("POST", "/api/unisson/process", { token: t.token, json: { conversation_id: chat.body.conversation_id } });
  return { chat, answer };
}
