import { describe, expect, test } from "bun:test";
import { png, textPdf } from "../../helpers/attachment-files.ts";
import { chatApp, useFakeProviders } from "../chat/chat.helpers.ts";
import { askWith, uploaded } from "./attachments.helpers.ts";

const fakes = useFakeProviders();

describe("GET /api/unisson/history: a conversation's files", () => {
  test("each row counts the files sent with its questions; a conversation without any says 0", async () => {
    const t = await chatApp(fakes());
    const ids = [await uploaded(t, await textPdf(1), "bail.pdf"), await uploaded(t, await png(40, 30), "photo.png")];
    const withFiles = (await askWith(t, ids)).chat.body.conversation_id;
    const plain = (await askWith(t, [], "Bonjour ?")).chat.body.conversation_id;
    const res = await t.call("GET", "/api/unisson/history", { token: t.token });
    expect(res.status).toBe(200);
    const count = (id: number) => res.body.conversations.find((c: { id: number }) => c.id === id)?.attachment_count;
    expect(count(withFiles)).toBe(2);
    expect(count(plain)).toBe(0);
  });
});
